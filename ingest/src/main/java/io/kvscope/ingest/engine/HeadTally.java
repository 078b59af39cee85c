package io.kvscope.ingest.engine;

import java.util.List;

/**
 * What the first lines of a file show about one engine's log, for detection: how many lines carry
 * the engine's prefix, whether a line only that engine writes was seen, and the JSON lines, its own
 * (a JSON request logger) apart from those of another kind. The engine's ingestor decides per line
 * what counts; {@link EngineLogIngestor} and the engine turn the tally into a score.
 */
public final class HeadTally {

  private int prefixed;
  private boolean marker;
  private boolean ownJson;
  private int otherJson;

  public void prefixedLine() {
    prefixed++;
  }

  /** Notes a marker when {@code line} holds one of {@code markers} (once one was seen, no more looking). */
  public void lookForMarker(String line, List<String> markers) {
    if (marker) {
      return;
    }
    for (String m : markers) {
      if (line.contains(m)) {
        marker = true;
        return;
      }
    }
  }

  public void ownJsonLine() {
    ownJson = true;
  }

  public void otherJsonLine() {
    otherJson++;
  }

  public int prefixed() {
    return prefixed;
  }

  public boolean ownJson() {
    return ownJson;
  }

  /** Lines with the engine's prefix and a line only the engine writes: the surest sign. */
  public boolean prefixAndMarker() {
    return prefixed > 0 && marker;
  }

  /** More JSON lines of another kind than engine lines. */
  boolean mostlyOtherJson() {
    return otherJson > prefixed;
  }
}
