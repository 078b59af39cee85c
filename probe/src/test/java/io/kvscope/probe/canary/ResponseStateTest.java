package io.kvscope.probe.canary;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Stream events in the engines' shapes (docs/formats.md). */
class ResponseStateTest {

  @Test
  void chatChunksAccumulateAndTheFirstTokenIsTheFirstNonEmptyContent() {
    ResponseState s = new ResponseState(Api.CHAT, 1000);
    s.accept("{\"id\":\"a\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}],\"usage\":null}", 10);
    s.accept("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"},\"finish_reason\":null}]}", 20);
    s.accept("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}", 30);
    s.accept("{\"choices\":[],\"usage\":{\"prompt_tokens\":812,\"completion_tokens\":2,\"total_tokens\":814}}", 40);
    assertThat(s.text()).isEqualTo("Hello");
    assertThat(s.firstTokenNanos).isEqualTo(20);
    assertThat(s.finishReason).isEqualTo("stop");
    assertThat(s.promptTokens).isEqualTo(812);
    assertThat(s.inBandError).isNull();
  }

  @Test
  void generateEventsAreCumulativeByDefaultAndIncrementalWhenAskedAndBothReadTheSame() {
    ResponseState cumulative = new ResponseState(Api.GENERATE, 1000);
    cumulative.accept("{\"text\":\"Par\",\"meta_info\":{\"prompt_tokens\":7,\"completion_tokens\":1,\"finish_reason\":null}}", 5);
    cumulative.accept("{\"text\":\"Paris.\",\"meta_info\":{\"prompt_tokens\":7,\"completion_tokens\":2,\"finish_reason\":{\"type\":\"length\",\"length\":2}}}", 9);
    assertThat(cumulative.text()).isEqualTo("Paris.");
    assertThat(cumulative.finishReason).isEqualTo("length");
    assertThat(cumulative.completionTokens).isEqualTo(2);

    ResponseState incremental = new ResponseState(Api.GENERATE, 1000);
    incremental.accept("{\"text\":\"Par\"}", 5);
    incremental.accept("{\"text\":\"is.\"}", 9);
    assertThat(incremental.text()).isEqualTo("Paris.");
  }

  @Test
  void anErrorEventIsARefusalNotAnAnswer() {
    ResponseState s = new ResponseState(Api.GENERATE, 1000);
    s.accept("{\"error\":{\"message\":\"The input (9000 tokens) is longer than the model's context length (8192 tokens).\"}}", 3);
    assertThat(s.inBandError).startsWith("The input (9000 tokens)");
    assertThat(s.text()).isEmpty();
    ResponseState chat = new ResponseState(Api.CHAT, 1000);
    chat.accept("{\"object\":\"error\",\"message\":\"bad\",\"type\":\"BadRequestError\",\"code\":400}", 3);
    assertThat(chat.inBandError).isEqualTo("bad");
  }

  @Test
  void textPastTheCapIsDroppedAndSaidSoAndGarbageIsCountedNotFatal() {
    ResponseState s = new ResponseState(Api.CHAT, 4);
    s.accept("{\"choices\":[{\"delta\":{\"content\":\"abcdef\"}}]}", 1);
    s.accept("not json", 2);
    assertThat(s.text()).isEqualTo("abcd");
    assertThat(s.truncated).isTrue();
    assertThat(s.unreadable).isEqualTo(1);
  }
}
