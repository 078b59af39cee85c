package io.kvscope.samples.out;

/**
 * One file the generator wrote.
 *
 * @param path relative to the output directory, with {@code /} separators
 * @param format {@code litellm-jsonl}, {@code otlp-json}, {@code sglang-log}, {@code deployment-manifest},
 *     {@code kubernetes-json} or {@code truth-json}
 * @param rawBytes bytes before compression
 * @param bytes bytes on disk
 */
public record WrittenFile(String path, String format, Codec codec, long rawBytes, long bytes, long lines) {}
