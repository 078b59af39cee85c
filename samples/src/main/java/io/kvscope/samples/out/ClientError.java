package io.kvscope.samples.out;

/**
 * The text an engine's 400 becomes on its way to the logs. SGLang's OpenAI server answers
 * {@code {"object":"error","message":…,"type":"BadRequestError","param":null,"code":400}}
 * ({@code entrypoints/openai/utils.py} {@code create_error_response}); openai-python raises it as
 * {@code Error code: 400 - <the body as a Python dict>} ({@code _base_client.py}
 * {@code _make_status_error_from_response}); LiteLLM wraps that as
 * {@code litellm.BadRequestError: OpenAIException - …} ({@code exception_mapping_utils.py}).
 */
final class ClientError {

  static final String ERROR_CLASS = "BadRequestError";

  private ClientError() {}

  /** {@code str(error)} of the openai-python exception for an engine's 400 with {@code message}. */
  static String openAiClient(String message) {
    return "Error code: 400 - {'object': 'error', 'message': " + pythonRepr(message)
        + ", 'type': 'BadRequestError', 'param': None, 'code': 400}";
  }

  /** {@code str(error)} of the LiteLLM exception that wraps it. */
  static String liteLlm(String message) {
    return "litellm.BadRequestError: OpenAIException - " + openAiClient(message);
  }

  /** Python's {@code repr} of a plain ASCII string: single quotes unless it holds one and no double quote. */
  static String pythonRepr(String s) {
    boolean single = s.indexOf('\'') >= 0 && s.indexOf('"') < 0;
    char quote = single ? '"' : '\'';
    StringBuilder out = new StringBuilder(s.length() + 2).append(quote);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' || c == quote) {
        out.append('\\');
      }
      out.append(c);
    }
    return out.append(quote).toString();
  }
}
