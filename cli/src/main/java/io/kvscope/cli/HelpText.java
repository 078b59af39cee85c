package io.kvscope.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.IHelpSectionRenderer;

/**
 * Help text that wraps between words only. picocli wraps where {@link java.text.BreakIterator}
 * allows, which is also after a dot or a colon: {@code report.md} became {@code report.} and
 * {@code md}, and a query example broke at {@code tenant:}. Here picocli lays each section out on
 * one very wide line, and the lines are then wrapped at {@value #WIDTH} columns at spaces outside
 * quotes, under the column their text starts in (an option's description under its description, a
 * list item under its first word). A word longer than the line stays whole.
 */
final class HelpText {

  /** The width of help on any terminal: 80 columns. */
  static final int WIDTH = 80;

  /** Wide enough that picocli itself never wraps a line. */
  private static final int UNWRAPPED = 4_000;

  /** The gap of two or more spaces between an option (or command) and its description. */
  private static final Pattern DESCRIPTION_COLUMN = Pattern.compile("^( *\\S.*?\\S {2,})\\S");
  /** A numbered or bulleted line: continuation lines go under its text. */
  private static final Pattern ITEM = Pattern.compile("^( *(?:\\d+\\.|-|\\*) )\\S");

  private HelpText() {}

  /** Makes every command of {@code cli} print its help wrapped between words. */
  static void install(CommandLine cli) {
    cli.setColorScheme(Help.defaultColorScheme(Help.Ansi.OFF));
    cli.setUsageHelpWidth(UNWRAPPED);
    wrapSections(cli);
  }

  private static void wrapSections(CommandLine command) {
    Map<String, IHelpSectionRenderer> sections = command.getHelpSectionMap();
    for (Map.Entry<String, IHelpSectionRenderer> section : sections.entrySet()) {
      IHelpSectionRenderer unwrapped = section.getValue();
      if (section.getKey().equals(CommandLine.Model.UsageMessageSpec.SECTION_KEY_SYNOPSIS)) {
        // The synopsis follows its heading ("Usage: ") on the same line: wrapped together, under the
        // first option.
        section.setValue(help -> {
          String heading = help.synopsisHeading();
          String wrapped = wrap(heading + unwrapped.render(help), (heading + help.commandSpec().qualifiedName() + " ").length());
          return wrapped.substring(heading.length());
        });
      } else {
        section.setValue(help -> wrap(unwrapped.render(help), -1));
      }
    }
    command.setHelpSectionMap(sections);
    command.getSubcommands().values().stream().distinct().forEach(HelpText::wrapSections);
  }

  /**
   * {@code text} with each line longer than {@link #WIDTH} wrapped at spaces outside quotes;
   * continuation lines are indented by {@code indent}, or (when negative) under the column the
   * line's text starts in.
   */
  static String wrap(String text, int indent) {
    StringBuilder out = new StringBuilder(text.length() + 64);
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (i > 0) {
        out.append('\n');
      }
      wrapLine(lines[i], indent, out);
    }
    return out.toString();
  }

  private static void wrapLine(String line, int fixedIndent, StringBuilder out) {
    String trimmed = line.stripTrailing();
    if (trimmed.length() <= WIDTH) {
      out.append(line);
      return;
    }
    int indent = fixedIndent >= 0 ? fixedIndent : continuationIndent(trimmed);
    if (indent > WIDTH / 2) {
      indent = leadingSpaces(trimmed);
    }
    // The first line keeps everything before the indent column as it is (an option's name and padding).
    int start = Math.min(indent, trimmed.length());
    while (start < trimmed.length() && trimmed.charAt(start) == ' ') {
      start++;
    }
    String prefix = trimmed.substring(0, start);
    List<String> words = words(trimmed.substring(start));
    String pad = " ".repeat(indent);
    StringBuilder current = new StringBuilder(prefix);
    boolean empty = true;
    for (String word : words) {
      if (!empty && current.length() + 1 + word.length() > WIDTH) {
        out.append(current).append('\n');
        current = new StringBuilder(pad);
        empty = true;
      }
      if (!empty) {
        current.append(' ');
      }
      current.append(word);
      empty = false;
    }
    out.append(current);
  }

  /** Where a long line's continuation goes: under its description, its item's text, or its first word. */
  private static int continuationIndent(String line) {
    Matcher description = DESCRIPTION_COLUMN.matcher(line);
    if (description.find()) {
      return description.group(1).length();
    }
    Matcher item = ITEM.matcher(line);
    if (item.find()) {
      return item.group(1).length();
    }
    return leadingSpaces(line);
  }

  private static int leadingSpaces(String line) {
    int n = 0;
    while (n < line.length() && line.charAt(n) == ' ') {
      n++;
    }
    return n;
  }

  /**
   * The words of {@code text}: runs between spaces, where a quoted example ({@code 'a:b AND c'},
   * a quote after a space and its match before a space or punctuation) is one word.
   */
  static List<String> words(String text) {
    List<String> words = new ArrayList<>();
    int i = 0;
    int n = text.length();
    while (i < n) {
      while (i < n && text.charAt(i) == ' ') {
        i++;
      }
      if (i >= n) {
        break;
      }
      int end = i;
      while (end < n && text.charAt(end) != ' ') {
        char c = text.charAt(end);
        if ((c == '\'' || c == '"') && (end == 0 || " ([".indexOf(text.charAt(end - 1)) >= 0)) {
          int close = closingQuote(text, end + 1, c);
          if (close > 0) {
            end = close;
          }
        }
        end++;
      }
      words.add(text.substring(i, end));
      i = end;
    }
    return words;
  }

  /** The quote {@code q} at or after {@code from} that ends a quoted example, or -1. */
  private static int closingQuote(String text, int from, char q) {
    for (int j = from; j < text.length(); j++) {
      if (text.charAt(j) == q && (j + 1 == text.length() || " ,.;:)]".indexOf(text.charAt(j + 1)) >= 0)) {
        return j;
      }
    }
    return -1;
  }
}
