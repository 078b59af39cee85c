package io.kvscope.ingest.deployment;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container image reference, {@code [registry/]repository[:tag][@digest]}, and what it says about
 * the engine inside. The engine's release is read from the tag as the projects publish them:
 * {@code lmsysorg/sglang:v0.5.19-cu126}, {@code lmsysorg/sglang:v0.5.13-cu130-runtime},
 * {@code lmsysorg/sglang:v0.4.6.post1-cu124}, {@code vllm/vllm-openai:v0.10.1.1}. Tags such as
 * {@code latest}, {@code dev} or {@code nightly-dev-20250925-1a2b3c4d} name no release, and a digest
 * alone does not either: the version then stays unknown.
 *
 * @param repository the repository path without registry, lower-cased ({@code lmsysorg/sglang})
 * @param tag the tag, or {@code null}
 */
public record ImageReference(String reference, String repository, String tag) {

  /** A release at the start of a tag: {@code v0.5.19}, {@code 0.4.6.post1}, {@code v0.5.3rc0}; a suffix after - or _. */
  private static final Pattern RELEASE_TAG = Pattern.compile(
      "^v?(\\d+\\.\\d+(?:\\.\\d+)*(?:\\.?(?:post|dev|rc|a|b)\\d+)*)(?:[-_+].*)?$");

  public static ImageReference parse(String reference) {
    if (reference == null || reference.isBlank()) {
      return null;
    }
    String ref = reference.strip();
    String withoutDigest = ref;
    int at = ref.indexOf('@');
    if (at >= 0) {
      withoutDigest = ref.substring(0, at);
    }
    String tag = null;
    int slash = withoutDigest.lastIndexOf('/');
    int colon = withoutDigest.lastIndexOf(':');
    if (colon > slash) { // a colon before the last slash is a registry port
      tag = withoutDigest.substring(colon + 1);
      withoutDigest = withoutDigest.substring(0, colon);
    }
    String repository = withoutDigest;
    int first = repository.indexOf('/');
    if (first > 0) {
      String head = repository.substring(0, first);
      if (head.contains(".") || head.contains(":") || head.equals("localhost")) {
        repository = repository.substring(first + 1); // docker.io/, ghcr.io/, registry:5000/
      }
    }
    return new ImageReference(ref, repository.toLowerCase(Locale.ROOT), tag == null || tag.isBlank() ? null : tag);
  }

  /**
   * {@code sglang} or {@code vllm} when the repository is one of their server images (the last path
   * part names the engine and is not its router or gateway), else {@code null}.
   */
  public String engine() {
    String name = repository.substring(repository.lastIndexOf('/') + 1);
    if (name.contains("router") || name.contains("gateway") || name.contains("-lb")) {
      return null;
    }
    if (name.contains("sglang")) {
      return "sglang";
    }
    if (name.contains("vllm")) {
      return "vllm";
    }
    return null;
  }

  /** The release the tag names ({@code 0.5.19} for {@code v0.5.19-cu126}), or {@code null}. */
  public String version() {
    if (tag == null) {
      return null;
    }
    Matcher m = RELEASE_TAG.matcher(tag);
    return m.matches() ? m.group(1) : null;
  }

  @Override
  public String toString() {
    return reference;
  }
}
