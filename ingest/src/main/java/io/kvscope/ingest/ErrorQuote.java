package io.kvscope.ingest;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an error returned to a client says about the request, read from the error's text: the
 * engine's over-length rejection (the only place the tokenizer-side one is ever written, since
 * SGLang returns it as a 400 without logging it), the HTTP status the OpenAI client put in front
 * of the body, and an engine rid when the text names one. Gateways and client traces keep this
 * text (LiteLLM {@code error_information.error_message}, an OTLP span's status message or
 * {@code exception.message}); nothing else in them carries these facts.
 *
 * @param rid an engine rid the text names ({@code rid='…'} or a {@code chatcmpl-} id), or null
 * @param promptTokens the prompt length the rejection quoted, or null
 * @param limitTokens the limit the rejection quoted (context length or maximum input), or null
 * @param httpStatus the status of {@code Error code: NNN}, or null
 */
public record ErrorQuote(String rid, Long promptTokens, Long limitTokens, Integer httpStatus) {

  public static final ErrorQuote NONE = new ErrorQuote(null, null, null, null);

  /** Texts longer than this are read only this far: the facts come first in every known shape. */
  static final int MAX_CHARS = 16 * 1024;

  // SGLang TokenizerManager._validate_one_request: the prompt reaches the context length.
  private static final Pattern CONTEXT_LENGTH = Pattern.compile(
      "The input \\((\\d{1,18}) tokens\\) is longer than the model's context length \\((\\d{1,18}) tokens\\)");
  // SGLang managers/utils.py validate_input_length: the prompt reaches min(context, pool) - margin.
  private static final Pattern MAX_INPUT = Pattern.compile(
      "Input length \\((\\d{1,18}) tokens\\) exceeds the maximum allowed length \\((\\d{1,18}) tokens\\)");
  // vLLM's OpenAI server (limit first, then the request).
  private static final Pattern VLLM_CONTEXT = Pattern.compile(
      "maximum context length is (\\d{1,18}) tokens\\. However, you requested (\\d{1,18}) tokens");
  // openai-python APIStatusError: "Error code: 400 - {...}".
  private static final Pattern HTTP_STATUS = Pattern.compile("Error code: ([1-5]\\d\\d)\\b");
  // SGLang names requests as rid='…' (self.rid=… in scheduler lines); a response id is chatcmpl-<rid>.
  private static final Pattern RID = Pattern.compile(
      "\\brid\\s*[=:]\\s*['\"]?([0-9A-Za-z][0-9A-Za-z_.-]{7,127})|\\bchatcmpl-([0-9A-Za-z][0-9A-Za-z_-]{7,127})");

  /** The facts in {@code text}; {@link #NONE} for null or text without any. */
  public static ErrorQuote parse(String text) {
    if (text == null || text.isBlank()) {
      return NONE;
    }
    String t = text.length() > MAX_CHARS ? text.substring(0, MAX_CHARS) : text;
    Long prompt = null;
    Long limit = null;
    Matcher m = CONTEXT_LENGTH.matcher(t);
    if (m.find()) {
      prompt = Long.parseLong(m.group(1));
      limit = Long.parseLong(m.group(2));
    } else if ((m = MAX_INPUT.matcher(t)).find()) {
      prompt = Long.parseLong(m.group(1));
      limit = Long.parseLong(m.group(2));
    } else if ((m = VLLM_CONTEXT.matcher(t)).find()) {
      limit = Long.parseLong(m.group(1));
      prompt = Long.parseLong(m.group(2));
    }
    Integer status = null;
    Matcher s = HTTP_STATUS.matcher(t);
    if (s.find()) {
      status = Integer.parseInt(s.group(1));
    }
    String rid = null;
    Matcher r = RID.matcher(t);
    if (r.find()) {
      rid = r.group(1) != null ? r.group(1) : r.group(2);
    }
    ErrorQuote quote = new ErrorQuote(rid, prompt, limit, status);
    return quote.equals(NONE) ? NONE : quote;
  }

  public boolean isRejection() {
    return limitTokens != null;
  }
}
