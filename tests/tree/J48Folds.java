// Weka's own cross-validation folds and J48's tree and predictions on each of them.
//
// Usage: java -cp weka.jar:. J48Folds OUT_DIR FOLDS SEED FILE.arff...
//
// For every ARFF file (class = last attribute) this follows the steps of
// weka.classifiers.Evaluation.crossValidateModel, i.e. of `J48 -x FOLDS -s SEED`:
// copy the data, randomize it with new Random(SEED), stratify it (nominal class),
// then for fold i take trainCV(FOLDS, i, random) and testCV(FOLDS, i). J48 with
// its default options (-C 0.25 -M 2) is built on each training part. Written to
// OUT_DIR/<relation file stem>/fold<i>/: train.arff and test.arff (Weka's ARFF text
// of the two parts, in the row order J48 saw), tree.txt (J48's printed tree) and
// pred.txt (J48's predicted class of every test row, one label a line); and
// OUT_DIR/<stem>/cv.txt, the output of Weka's own command line `J48 -t FILE -x FOLDS
// -s SEED -o` (Evaluation.evaluateModel), whose totals the folds must add up to.
// Used by tests/tree/_weka.py (compiled there with javac against weka.jar).

import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.util.Random;

import weka.classifiers.Evaluation;
import weka.classifiers.trees.J48;
import weka.core.Instances;
import weka.core.converters.ConverterUtils.DataSource;

public class J48Folds {

    static void write(File file, String text) throws Exception {
        try (Writer out = new OutputStreamWriter(new FileOutputStream(file), "UTF-8")) {
            out.write(text);
        }
    }

    public static void main(String[] args) throws Exception {
        File outDir = new File(args[0]);
        int folds = Integer.parseInt(args[1]);
        int seed = Integer.parseInt(args[2]);
        for (int a = 3; a < args.length; a++) {
            File arff = new File(args[a]);
            Instances data = DataSource.read(arff.getPath());
            data.setClassIndex(data.numAttributes() - 1);
            Random random = new Random(seed);
            data = new Instances(data);
            data.randomize(random);
            if (data.classAttribute().isNominal()) {
                data.stratify(folds);
            }
            String stem = arff.getName().replaceFirst("\\.arff$", "");
            for (int i = 0; i < folds; i++) {
                Instances train = data.trainCV(folds, i, random);
                Instances test = data.testCV(folds, i);
                J48 j48 = new J48();
                j48.buildClassifier(train);
                StringBuilder pred = new StringBuilder();
                for (int r = 0; r < test.numInstances(); r++) {
                    int k = (int) j48.classifyInstance(test.instance(r));
                    pred.append(test.classAttribute().value(k)).append('\n');
                }
                File dir = new File(new File(outDir, stem), "fold" + i);
                dir.mkdirs();
                write(new File(dir, "train.arff"), train.toString() + "\n");
                write(new File(dir, "test.arff"), test.toString() + "\n");
                write(new File(dir, "tree.txt"), j48.toString());
                write(new File(dir, "pred.txt"), pred.toString());
            }
            String[] options = {"-t", arff.getPath(), "-x", args[1], "-s", args[2], "-o"};
            write(new File(new File(outDir, stem), "cv.txt"),
                  Evaluation.evaluateModel(new J48(), options));
        }
    }
}
