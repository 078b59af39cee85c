package io.kvscope.ingest;

/**
 * A failure while reading a line or a file, in words a responder reads: what kind of value broke,
 * never a Java class name ({@code ArithmeticException}) and never the failure's own message, which
 * a parser may fill with the input's text (a prompt).
 */
public final class FailureWords {

  private FailureWords() {}

  public static String of(Throwable failure) {
    return switch (failure) {
      case NumberFormatException n -> "a number too large or malformed";
      case ArithmeticException a -> "a number out of the range kvscope computes with";
      case java.time.DateTimeException d -> "a time or date that does not exist";
      case com.fasterxml.jackson.core.JsonProcessingException j -> "not valid JSON";
      case java.nio.charset.CharacterCodingException c -> "text that is not valid in its encoding";
      case java.io.EOFException e -> "the file ends in the middle of a record";
      case java.io.IOException io -> "the file cannot be read further";
      case OutOfMemoryError o -> "a value too large to hold in memory";
      case StackOverflowError s -> "structure nested too deeply";
      case IndexOutOfBoundsException i -> "a line shorter than its format needs";
      case NullPointerException n -> "a value missing that the format needs";
      case IllegalArgumentException i -> "a value out of the range the format allows";
      default -> "a value the reader of this format could not handle";
    };
  }
}
