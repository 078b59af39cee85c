package io.kvscope.index;

import io.kvscope.index.doc.Schema;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.Term;
import org.apache.lucene.document.DoubleField;
import org.apache.lucene.document.LongField;
import org.apache.lucene.queryparser.classic.MultiFieldQueryParser;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.WildcardQuery;

/**
 * Lucene query syntax over the {@link Schema}: numeric fields take numbers and ranges
 * ({@code prompt_tokens:[681280 TO *]}), time fields also take ISO dates and instants
 * ({@code start_time:[2026-08-27 TO 2026-09-10]}; a date alone means that whole UTC day), keyword
 * fields match exactly, and a bare word searches prompt and response text (as the leak model's words,
 * {@code WordTokens}); one that looks like an
 * id (a pasted request id, engine rid, trace or call id) also finds the request it names. A field the schema
 * does not know is an error naming the closest known one: a misspelt field would otherwise match
 * nothing, and "0 matches" would read as an answer.
 */
public final class QueryParsing {

  private QueryParsing() {}

  public static Query parse(String query) throws ParseException {
    return parseWithTerms(query).query();
  }

  /**
   * A parsed query and its bare words (those searched without a field), in order.
   */
  public record Parsed(Query query, List<String> bareWords) {}

  public static Parsed parseWithTerms(String query) throws ParseException {
    SchemaAwareParser parser = new SchemaAwareParser();
    parser.setAllowLeadingWildcard(true);
    Query parsed = parser.parse(query);
    return new Parsed(parsed, List.copyOf(parser.bareWords));
  }

  /**
   * Whether a bare word may be an id: at least 4 characters, a digit among them, and nothing but
   * letters, digits and - _ . : (chatcmpl-9f1c6e2b88, gw-7, a UUID, 32 hex digits).
   */
  static boolean looksLikeId(String word) {
    return word.length() >= 4 && word.chars().noneMatch(Character::isWhitespace) && word.chars().anyMatch(Character::isDigit)
        && word.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_.:".indexOf(c) >= 0);
  }

  private static final long DAY_MILLIS = 86_400_000L;

  private static final class SchemaAwareParser extends MultiFieldQueryParser {

    /** The words searched without a field, as typed. */
    final List<String> bareWords = new ArrayList<>();

    SchemaAwareParser() {
      super(Schema.TEXT_FIELDS.toArray(String[]::new), Schema.analyzer());
    }

    @Override
    protected Query getFieldQuery(String field, String text, boolean quoted) throws ParseException {
      if (field == null) {
        bareWords.add(text);
        Query inText = super.getFieldQuery(null, text, quoted);
        if (quoted || !looksLikeId(text)) {
          return inText;
        }
        // A pasted id: the request with that gateway id, engine rid or other id, as well as text holding it.
        // Aliases are kind:value (trace_id:..., litellm_call_id:...): any kind, this value.
        String escaped = text.replace("\\", "\\\\").replace("*", "\\*").replace("?", "\\?");
        BooleanQuery.Builder any = new BooleanQuery.Builder()
            .add(new TermQuery(new Term(Schema.REQUEST_ID, text)), Occur.SHOULD)
            .add(new TermQuery(new Term(Schema.ENGINE_RID, text)), Occur.SHOULD)
            .add(new WildcardQuery(new Term(Schema.ALIAS, "*:" + escaped)), Occur.SHOULD);
        if (inText != null) {
          any.add(inText, Occur.SHOULD);
        }
        return any.build();
      }
      requireKnown(field);
      switch (Schema.kindOf(field)) {
        case LONG -> {
          if (Schema.isTime(field) && UtcTimes.isDate(text)) {
            long day = parseTime(field, text);
            return LongField.newRangeQuery(field, day, day + DAY_MILLIS - 1);
          }
          long value = parseLong(field, text);
          return LongField.newExactQuery(field, value);
        }
        case DOUBLE -> {
          return DoubleField.newExactQuery(field, parseDouble(field, text));
        }
        default -> { }
      }
      return super.getFieldQuery(field, text, quoted);
    }

    @Override
    protected Query getRangeQuery(String field, String low, String high, boolean lowInclusive,
        boolean highInclusive) throws ParseException {
      if (field != null) {
        requireKnown(field);
        switch (Schema.kindOf(field)) {
          case LONG -> {
            long from = low == null || low.equals("*") ? Long.MIN_VALUE : parseLong(field, low);
            long to = high == null || high.equals("*") ? Long.MAX_VALUE : parseLong(field, high);
            if (!lowInclusive && from != Long.MIN_VALUE) {
              from = Math.addExact(from, 1);
            }
            if (!highInclusive && to != Long.MAX_VALUE) {
              to = Math.addExact(to, -1);
            }
            return LongField.newRangeQuery(field, from, to);
          }
          case DOUBLE -> {
            double from = low == null || low.equals("*") ? Double.NEGATIVE_INFINITY : parseDouble(field, low);
            double to = high == null || high.equals("*") ? Double.POSITIVE_INFINITY : parseDouble(field, high);
            if (!lowInclusive) {
              from = Math.nextUp(from);
            }
            if (!highInclusive) {
              to = Math.nextDown(to);
            }
            return DoubleField.newRangeQuery(field, from, to);
          }
          default -> { }
        }
      }
      return super.getRangeQuery(field, low, high, lowInclusive, highInclusive);
    }

    @Override
    protected Query getWildcardQuery(String field, String termStr) throws ParseException {
      requireKnown(field);
      return super.getWildcardQuery(field, termStr);
    }

    @Override
    protected Query getPrefixQuery(String field, String termStr) throws ParseException {
      requireKnown(field);
      return super.getPrefixQuery(field, termStr);
    }

    @Override
    protected Query getFuzzyQuery(String field, String termStr, float minSimilarity) throws ParseException {
      requireKnown(field);
      return super.getFuzzyQuery(field, termStr, minSimilarity);
    }

    @Override
    protected Query getRegexpQuery(String field, String termStr) throws ParseException {
      requireKnown(field);
      return super.getRegexpQuery(field, termStr);
    }

    /** Fields given by the multi-field default (null), {@code *} (as in *:*) or named in the schema pass. */
    private static void requireKnown(String field) throws ParseException {
      if (field == null || field.equals("*") || Schema.isKnown(field)) {
        return;
      }
      String closest = closestField(field);
      throw new ParseException("unknown field '" + field + "'" + (closest == null ? "" : "; did you mean " + closest + "?")
          + " (kvscope search --fields lists them)");
    }

    /** The known field that reads the same without case and separators, or shares the longest start. */
    private static String closestField(String field) {
      String bare = field.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]", "");
      String best = null;
      int bestShared = 3; // fewer shared leading letters is no hint
      for (Schema.Field known : Schema.FIELDS) {
        String knownBare = known.name().replaceAll("[^a-z0-9]", "");
        if (knownBare.equals(bare)) {
          return known.name();
        }
        int shared = 0;
        while (shared < Math.min(bare.length(), knownBare.length()) && bare.charAt(shared) == knownBare.charAt(shared)) {
          shared++;
        }
        if (shared > bestShared) {
          bestShared = shared;
          best = known.name();
        }
      }
      return best;
    }

    private static long parseLong(String field, String text) throws ParseException {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException notANumber) {
        if (Schema.isTime(field)) {
          return parseTime(field, text);
        }
        throw new ParseException(field + " takes a whole number, not '" + text + "'");
      }
    }

    private static double parseDouble(String field, String text) throws ParseException {
      try {
        return Double.parseDouble(text);
      } catch (NumberFormatException notANumber) {
        throw new ParseException(field + " takes a number, not '" + text + "'");
      }
    }

    /** A time as {@code --since} takes it ({@link UtcTimes}), in epoch milliseconds. */
    private static long parseTime(String field, String text) throws ParseException {
      try {
        return UtcTimes.parse(text).toEpochMilli();
      } catch (DateTimeParseException e) {
        throw new ParseException(field + " takes epoch ms or a UTC time such as " + UtcTimes.FORMS
            + " (quote one with a space inside a range), not '" + text + "'");
      }
    }
  }
}
