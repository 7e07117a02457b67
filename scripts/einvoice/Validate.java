// Validates e-invoices (UBL or CII XML, Factur-X/ZUGFeRD PDF) with the Mustang project's
// validator against EN 16931; prints each report and exits 1 unless every file is completely
// valid. Run through scripts/einvoice/validate.sh, which resolves the class path from Maven
// Central.

import java.nio.file.Files;
import java.nio.file.Path;
import org.mustangproject.validator.ZUGFeRDValidator;

public class Validate {
  public static void main(String[] args) throws Exception {
    boolean allValid = args.length > 0;
    for (String file : args) {
      if (!Files.isRegularFile(Path.of(file))) throw new IllegalArgumentException("no such file: " + file);
      ZUGFeRDValidator validator = new ZUGFeRDValidator();
      String report = validator.validate(file);
      boolean valid = validator.wasCompletelyValid();
      System.out.println("== " + file + ": " + (valid ? "valid" : "INVALID"));
      System.out.println(report);
      allValid &= valid;
    }
    System.exit(allValid ? 0 : 1);
  }
}
