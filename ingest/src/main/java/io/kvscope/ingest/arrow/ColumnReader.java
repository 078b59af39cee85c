package io.kvscope.ingest.arrow;

import io.kvscope.ingest.json.Times;
import io.kvscope.ingest.record.CanonicalField;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FloatingPointVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;

/**
 * Reads one canonical field from a column of whatever compatible Arrow type the writer chose:
 * strings as utf8, large_utf8 or utf8_view (dictionary-encoded too, as pandas categoricals are),
 * counts as any integer type (or integral floats, which pandas writes for nullable integers),
 * times as int64 milliseconds, timestamps of any unit, dates, or ISO-8601 strings.
 */
final class ColumnReader {

  private final CanonicalField field;
  private final FieldVector column;
  private final ValueVector dictionary;

  private ColumnReader(CanonicalField field, FieldVector column, ValueVector dictionary) {
    this.field = field;
    this.column = column;
    this.dictionary = dictionary;
  }

  /** Binds {@code field} to {@code column} for the current batch. */
  static ColumnReader bind(CanonicalField field, FieldVector column, DictionaryProvider dictionaries) {
    DictionaryEncoding encoding = column.getField().getDictionary();
    ValueVector values = null;
    if (encoding != null) {
      Dictionary dictionary = dictionaries.lookup(encoding.getId());
      if (dictionary == null) {
        throw new IllegalArgumentException("column " + field.column() + " refers to dictionary "
            + encoding.getId() + ", which the file does not contain");
      }
      values = dictionary.getVector();
    }
    return new ColumnReader(field, column, values);
  }

  /**
   * The value at {@code row} as the field's Java type, or {@code null}.
   *
   * @throws IllegalArgumentException when the value does not fit the field (names column and type)
   */
  Object read(int row) {
    if (column.isNull(row)) {
      return null;
    }
    ValueVector source = column;
    int index = row;
    if (dictionary != null) {
      index = Math.toIntExact(((BaseIntVector) column).getValueAsLong(row));
      source = dictionary;
      if (source.isNull(index)) {
        return null;
      }
    }
    return switch (field.type()) {
      case STRING, TEXT -> string(source, index);
      case LONG -> whole(source, index);
      case INT -> {
        long value = whole(source, index);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
          throw new IllegalArgumentException(field.column() + " value is out of range");
        }
        yield (int) value;
      }
      case TIME -> millis(source, index);
    };
  }

  private String string(ValueVector source, int index) {
    return switch (source) {
      case VarCharVector v -> new String(v.get(index), StandardCharsets.UTF_8);
      case LargeVarCharVector v -> new String(v.get(index), StandardCharsets.UTF_8);
      case ViewVarCharVector v -> new String(v.get(index), StandardCharsets.UTF_8);
      case BaseIntVector v -> Long.toString(v.getValueAsLong(index));
      default -> String.valueOf(source.getObject(index));
    };
  }

  private long whole(ValueVector source, int index) {
    return switch (source) {
      case BaseIntVector v -> v.getValueAsLong(index);
      case FloatingPointVector v -> {
        double d = v.getValueAsDouble(index);
        if (!Double.isFinite(d) || d != Math.rint(d)) {
          throw new IllegalArgumentException(field.column() + " is not a whole number");
        }
        yield (long) d;
      }
      case VarCharVector v -> parseWhole(new String(v.get(index), StandardCharsets.UTF_8));
      case LargeVarCharVector v -> parseWhole(new String(v.get(index), StandardCharsets.UTF_8));
      case ViewVarCharVector v -> parseWhole(new String(v.get(index), StandardCharsets.UTF_8));
      default -> throw wrongType(source);
    };
  }

  private long parseWhole(String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(field.column() + " is not a whole number");
    }
  }

  private long millis(ValueVector source, int index) {
    return switch (source) {
      case TimeStampVector v -> timestampMillis(v, v.get(index));
      case DateMilliVector v -> v.get(index);
      case DateDayVector v -> v.get(index) * 86_400_000L;
      case BaseIntVector v -> v.getValueAsLong(index);
      case FloatingPointVector v -> Math.round(v.getValueAsDouble(index));
      case VarCharVector v -> textMillis(new String(v.get(index), StandardCharsets.UTF_8));
      case LargeVarCharVector v -> textMillis(new String(v.get(index), StandardCharsets.UTF_8));
      case ViewVarCharVector v -> textMillis(new String(v.get(index), StandardCharsets.UTF_8));
      default -> throw wrongType(source);
    };
  }

  private static long timestampMillis(TimeStampVector vector, long raw) {
    ArrowType.Timestamp type = (ArrowType.Timestamp) vector.getField().getType();
    return switch (type.getUnit()) {
      case SECOND -> raw * 1000L;
      case MILLISECOND -> raw;
      case MICROSECOND -> Math.floorDiv(raw, 1_000L);
      case NANOSECOND -> Math.floorDiv(raw, 1_000_000L);
    };
  }

  /** Times in a text column: epoch milliseconds in digits, or ISO-8601. */
  private long textMillis(String text) {
    String t = text.strip();
    try {
      return Long.parseLong(t);
    } catch (NumberFormatException notDigits) {
      try {
        return Times.fromIso(t);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(field.column() + " is " + e.getMessage());
      }
    }
  }

  private IllegalArgumentException wrongType(ValueVector source) {
    return new IllegalArgumentException("column " + field.column() + " has Arrow type "
        + source.getField().getType() + ", which cannot hold a " + field.type().name().toLowerCase(java.util.Locale.ROOT));
  }
}
