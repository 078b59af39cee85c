package io.kvscope.spark;

import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/** What the stages share: how an output folder is written, and failures in words that quote no input. */
final class Stages {

  private Stages() {}

  /** Writes {@code rows} as Parquet (zstd) to {@code out/folder}, replacing an earlier run's. */
  static void write(Dataset<Row> rows, String out, String folder) {
    rows.write().mode(SaveMode.Overwrite).option("compression", "zstd").parquet(out + "/" + folder);
  }

  static void write(SparkSession spark, List<Row> rows, StructType schema, String out, String folder) {
    write(spark.createDataFrame(rows, schema).coalesce(1), out, folder);
  }

  /** Deletes a local folder and everything in it. */
  static void deleteTree(java.nio.file.Path folder) throws IOException {
    try (java.util.stream.Stream<java.nio.file.Path> walk = java.nio.file.Files.walk(folder)) {
      for (java.nio.file.Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        java.nio.file.Files.deleteIfExists(path);
      }
    }
  }

  /** An I/O failure in words: the reason given, never text a parser quoted (it may be a prompt). */
  static String describe(IOException failure) {
    if (failure instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    if (failure instanceof java.nio.file.NoSuchFileException || failure instanceof java.io.FileNotFoundException) {
      return "no longer exists";
    }
    if (failure instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (failure instanceof com.fasterxml.jackson.core.JsonProcessingException || failure.getMessage() == null) {
      return failure.getClass().getSimpleName();
    }
    return failure.getMessage();
  }

  /** A parse failure in words, as the single-machine ingest quarantines it. */
  static String what(Exception failure) {
    if (failure instanceof NumberFormatException) {
      return "a number too large or malformed";
    }
    return failure.getClass().getSimpleName() + (failure instanceof IOException io ? " (" + describe(io) + ")" : "");
  }
}
