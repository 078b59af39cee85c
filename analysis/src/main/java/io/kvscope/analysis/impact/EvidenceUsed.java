package io.kvscope.analysis.impact;

import java.util.List;

/**
 * What a report's figures rest on: every input file the index was built from and the kvscope that
 * analysed it (its settings are the report's parameters). With it, a responder can show a regulator
 * which evidence was used, and anyone can check later that the same files give the same figures.
 *
 * @param kvscopeVersion the release and commit that wrote the report, or null when not known
 * @param files the files ingested into the index, by path
 */
public record EvidenceUsed(String kvscopeVersion, List<File> files) {

  /** A report that says nothing of its evidence (one written before report version 1.3). */
  public static final EvidenceUsed NONE = new EvidenceUsed(null, List.of());

  /**
   * One input file as the ingest read it.
   *
   * @param path its absolute path when it was read
   * @param format the format it was read as
   * @param bytes its size as stored (compressed, if it was)
   * @param sha256 the SHA-256 of those bytes, taken as they were read; null when the reading did
   *     not see them all (the file was not read completely)
   * @param records records read from it
   * @param rejected bad records (lines) set aside in the index's quarantine
   * @param complete whether it was read to its end
   */
  public record File(String path, String format, long bytes, String sha256, long records, long rejected,
      boolean complete) {}

  public EvidenceUsed {
    files = files == null ? List.of() : List.copyOf(files);
  }

  public EvidenceUsed withVersion(String version) {
    return new EvidenceUsed(version, files);
  }

  public long totalBytes() {
    return files.stream().mapToLong(File::bytes).sum();
  }

  public long totalRecords() {
    return files.stream().mapToLong(File::records).sum();
  }

  public long totalRejected() {
    return files.stream().mapToLong(File::rejected).sum();
  }
}
