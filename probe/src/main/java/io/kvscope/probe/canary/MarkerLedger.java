package io.kvscope.probe.canary;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which request each marker was given to, and what a marker found in a response means.
 *
 * <p>A marker found in a response is: the recipient's own; another request's (exactly, or cut
 * short but still holding at least {@link #MIN_PARTIAL} of its random characters, 41 bits: a leak
 * either way); of this run but nobody's (a garbled copy); or not of this run at all (another run's,
 * or a model imitating the format: reported, never counted as a leak, since nothing proves where it
 * came from).
 */
public final class MarkerLedger {

  /** Random characters a cut marker must keep to still name its owner. */
  static final int MIN_PARTIAL = 8;

  /** What a found marker is. */
  public enum Match { OWN, OTHER_REQUEST, OTHER_REQUEST_PARTIAL, UNISSUED_THIS_RUN, NOT_THIS_RUN }

  /** A found marker and, for another request's, whose it was. */
  public record Classified(String marker, Match match, String owner) {

    public boolean leak() {
      return match == Match.OTHER_REQUEST || match == Match.OTHER_REQUEST_PARTIAL;
    }
  }

  private final Markers markers;
  private final Map<String, String> ownerByRandom = new ConcurrentHashMap<>();

  public MarkerLedger(Markers markers) {
    this.markers = markers;
  }

  public Markers markers() {
    return markers;
  }

  /** A new marker given to {@code requestId}. */
  public String issue(String requestId) {
    String marker = markers.next();
    ownerByRandom.put(markers.randomPart(marker), requestId);
    return marker;
  }

  public int issued() {
    return ownerByRandom.size();
  }

  /** Each distinct canary-shaped string in {@code response}, classified for {@code recipient}. */
  public List<Classified> classify(String recipient, String response) {
    List<Classified> out = new ArrayList<>();
    for (String found : Markers.find(response).stream().distinct().toList()) {
      out.add(classifyOne(recipient, found));
    }
    return out;
  }

  Classified classifyOne(String recipient, String found) {
    String random = markers.randomPart(found);
    if (random == null) {
      return new Classified(found, Match.NOT_THIS_RUN, null);
    }
    // A marker glued to the word after it still starts with its random characters.
    String owner = ownerByRandom.get(random.length() > Markers.RANDOM_CHARS ? random.substring(0, Markers.RANDOM_CHARS) : random);
    if (owner != null) {
      return new Classified(found, owner.equals(recipient) ? Match.OWN : Match.OTHER_REQUEST, owner);
    }
    if (random.length() >= MIN_PARTIAL && random.length() < Markers.RANDOM_CHARS) {
      String only = null;
      for (Map.Entry<String, String> e : ownerByRandom.entrySet()) {
        if (e.getKey().startsWith(random)) {
          if (only != null && !only.equals(e.getValue())) {
            return new Classified(found, Match.UNISSUED_THIS_RUN, null); // two owners share it: no attribution
          }
          only = e.getValue();
        }
      }
      if (only != null) {
        return new Classified(found, only.equals(recipient) ? Match.OWN : Match.OTHER_REQUEST_PARTIAL, only);
      }
    }
    return new Classified(found, Match.UNISSUED_THIS_RUN, null);
  }
}
