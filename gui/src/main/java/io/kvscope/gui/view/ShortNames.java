package io.kvscope.gui.view;

import java.util.Collection;
import java.util.List;

/**
 * Names as crowded tables show them: without the prefix they all share, so the part that tells
 * them apart is what fits ({@code a0}, {@code b1} for {@code sglang-decode-a0},
 * {@code sglang-decode-b1}). The prefix is cut at a separator, never inside a word; tooltips give
 * full names. Ids ({@link #ofIds}) also keep only as many leading characters as tell them all
 * apart, as git shortens commit hashes.
 */
final class ShortNames {

  static final ShortNames NONE = new ShortNames("", Integer.MAX_VALUE);

  private final String prefix;
  private final int length;

  private ShortNames(String prefix, int length) {
    this.prefix = prefix;
    this.length = length;
  }

  /**
   * Short ids for {@code ids}: without their shared prefix ({@code chatcmpl-}), then the first
   * {@code minLength} or more characters, as many as keep every id distinct.
   */
  static ShortNames ofIds(Collection<String> ids, int minLength) {
    ShortNames stripped = of(ids);
    List<String> rest = ids.stream().filter(n -> n != null && !n.isEmpty()).distinct().map(stripped::of).toList();
    int longest = rest.stream().mapToInt(String::length).max().orElse(0);
    for (int n = minLength; n < longest; n++) {
      int keep = n;
      if (rest.stream().map(id -> id.substring(0, Math.min(keep, id.length()))).distinct().count() == rest.size()) {
        return new ShortNames(stripped.prefix, n);
      }
    }
    return stripped;
  }

  /** Short names for {@code full}: two or more names that share a prefix up to a separator lose it. */
  static ShortNames of(Collection<String> full) {
    List<String> names = full.stream().filter(n -> n != null && !n.isEmpty()).distinct().toList();
    if (names.size() < 2) {
      return NONE;
    }
    String common = names.get(0);
    for (String name : names) {
      int i = 0;
      while (i < common.length() && i < name.length() && common.charAt(i) == name.charAt(i)) {
        i++;
      }
      common = common.substring(0, i);
    }
    int cut = common.length();
    while (cut > 0 && "-_.:/ ".indexOf(common.charAt(cut - 1)) < 0) {
      cut--;
    }
    String prefix = common.substring(0, cut);
    // Names that differ only inside the prefix cannot occur (they would share more), but a name
    // that is all prefix would lose everything: keep full names then.
    boolean everyLabelLeft = names.stream().allMatch(n -> n.length() > prefix.length());
    return everyLabelLeft ? new ShortNames(prefix, Integer.MAX_VALUE) : NONE;
  }

  String of(String name) {
    if (name == null) {
      return null;
    }
    String rest = name.startsWith(prefix) ? name.substring(prefix.length()) : name;
    return rest.length() > length ? rest.substring(0, length) : rest;
  }

  String prefix() {
    return prefix;
  }
}
