/**
 * A reader for the Python {@code repr()} text that SGLang and vLLM print into their logs:
 * {@code ServerArgs(model_path='m', context_length=None, ...)}, {@code GenerateReqInput(rid='r', ...)},
 * {@code {'meta_info': {'id': 'r', ...}}}, {@code Namespace(max_model_len=32768, ...)}.
 *
 * <p>The text is read into plain {@link io.kvscope.ingest.engine.pyrepr.PyValue}s. Callers say which
 * keys they need with a {@link io.kvscope.ingest.engine.pyrepr.ReadSelection}; everything else is scanned
 * structurally and never copied, so a request line carrying megabytes of prompt text costs one pass
 * over its characters and no prompt text ends up in memory. Long strings are kept only as their
 * length. The reader tolerates what log formatters do to values: SGLang's {@code 'abc' ... 'xyz'}
 * truncation, bare words ({@code type=prefill}), and {@code <object at 0x...>} reprs.
 */
package io.kvscope.ingest.engine.pyrepr;
