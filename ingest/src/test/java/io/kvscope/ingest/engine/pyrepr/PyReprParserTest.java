package io.kvscope.ingest.engine.pyrepr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PyReprParserTest {

  @Test
  void readsDataclassReprWithAwkwardStrings() {
    String repr = "ServerArgs(model_path='/models/a,b(c)', served_model_name=\"it's\", "
        + "context_length=None, json_model_override_args='{\"rope\": {\"factor\": 4.0}, \"x\": \"(,)\"}', "
        + "lora_paths=['a', 'b'], extra={'k': (1, 2), 3: 'v'}, kv_canary='raise', flag=True, "
        + "off=False, ratio=-1.5e-05, dtype=torch.bfloat16, tag='don\\'t', sampler=<Sampler object at 0x7f>)";
    PyValue v = new PyReprParser(repr, 0).value(ReadSelection.all());

    assertThat(v).isInstanceOf(PyValue.Call.class);
    assertThat(((PyValue.Call) v).name()).isEqualTo("ServerArgs");
    assertThat(v.get("model_path").text()).isEqualTo("/models/a,b(c)");
    assertThat(v.get("served_model_name").text()).isEqualTo("it's");
    assertThat(v.get("context_length").isNone()).isTrue();
    assertThat(v.get("json_model_override_args").text()).contains("\"(,)\"");
    assertThat(((PyValue.Seq) v.get("lora_paths")).items()).extracting(PyValue::text).containsExactly("a", "b");
    assertThat(v.get("extra").get("k")).isInstanceOf(PyValue.Seq.class);
    assertThat(v.get("extra").get("3").text()).isEqualTo("v");
    assertThat(v.get("kv_canary").text()).isEqualTo("raise");
    assertThat(v.get("flag").asBoolean()).isTrue();
    assertThat(v.get("off").asBoolean()).isFalse();
    assertThat(v.get("ratio").asDouble()).isEqualTo(-1.5e-05);
    assertThat(v.get("dtype").text()).isEqualTo("torch.bfloat16");
    assertThat(v.get("tag").text()).isEqualTo("don't");
    assertThat(v.get("sampler").text()).isEqualTo("<Sampler object at 0x7f>");
  }

  @Test
  void readsBareWordsAndKeepsLargeIdsExact() {
    PyValue v = new PyReprParser("ReqTimeStats(rid=9f1c-ab_x, bootstrap_room=6593551520068383758, type=prefill): q=1ms", 0)
        .value(ReadSelection.all());
    assertThat(v.get("rid").text()).isEqualTo("9f1c-ab_x");
    assertThat(v.get("bootstrap_room").asLong()).isEqualTo(6593551520068383758L);
    assertThat(v.get("type").text()).isEqualTo("prefill");
  }

  @Test
  void joinsTruncatedStringsAndListsWithoutKeepingThem() {
    String repr = "GenerateReqInput(rid='r1', text='head of a long prompt' ... 'tail of it', "
        + "input_ids=[1, 2, 3] ... [7, 8, 9], bootstrap_room=5)";
    PyValue v = new PyReprParser(repr, 0).value(ReadSelection.all());
    assertThat(v.get("rid").text()).isEqualTo("r1");
    assertThat(v.get("text").text()).isNull();
    assertThat(((PyValue.Str) v.get("text")).length()).isEqualTo("head of a long prompt".length() + "tail of it".length());
    assertThat(((PyValue.Seq) v.get("input_ids")).truncated()).isTrue();
    assertThat(((PyValue.Seq) v.get("input_ids")).items()).hasSize(6);
    assertThat(v.get("bootstrap_room").asLong()).isEqualTo(5L);
  }

  @Test
  void skipsWhatIsNotWanted() {
    String repr = "GenerateReqInput(text='a prompt that must not be read', rid='r2', sampling_params={'temperature': 0.7})";
    PyValue v = new PyReprParser(repr, 0).value(ReadSelection.keys("rid"));
    PyValue.Call call = (PyValue.Call) v;
    assertThat(call.keywords()).containsOnlyKeys("rid");
    assertThat(call.keywords().get("rid").text()).isEqualTo("r2");
  }

  @Test
  void capsLongStringsToTheirLength() {
    String prompt = "x".repeat(5000);
    PyValue v = new PyReprParser("f(text='" + prompt + "')", 0, 100).value(ReadSelection.all());
    assertThat(v.get("text").text()).isNull();
    assertThat(((PyValue.Str) v.get("text")).length()).isEqualTo(5000);
  }

  @Test
  void readsKeywordListsToTheEnd() {
    String msg = "obj=GenerateReqInput(rid='r3'), headers={'x-smg-routing-key': 'k'}, "
        + "out={'meta_info': {'id': 'r3', 'finish_reason': {'type': 'length', 'length': 16}, 'e2e_latency': 0.25}}";
    Map<String, PyValue> kw = new PyReprParser(msg, 0).keywordsToEnd(ReadSelection.all());
    assertThat(kw).containsOnlyKeys("obj", "headers", "out");
    assertThat(kw.get("out").get("meta_info").get("finish_reason").get("type").text()).isEqualTo("length");
    assertThat(kw.get("out").get("meta_info").get("e2e_latency").asDouble()).isEqualTo(0.25);
  }

  @Test
  void reportsLinesCutMidValueWithoutQuotingThem() {
    String cut = "ServerArgs(model_path='/models/secret-model-name', context_length=1048";
    assertThatThrownBy(() -> new PyReprParser(cut, 0).value(ReadSelection.all()))
        .isInstanceOf(PyReprException.class)
        .hasMessageNotContaining("secret");
    String openString = "GenerateReqInput(rid='r4', text='my private prompt";
    assertThatThrownBy(() -> new PyReprParser(openString, 0).value(ReadSelection.keys("rid")))
        .isInstanceOf(PyReprException.class)
        .hasMessageContaining("quoted string")
        .hasMessageNotContaining("private");
  }

  @Test
  void refusesUnboundedNesting() {
    String deep = "[".repeat(500) + "]".repeat(500);
    assertThatThrownBy(() -> new PyReprParser(deep, 0).value(ReadSelection.all()))
        .isInstanceOf(PyReprException.class)
        .hasMessageContaining("nested");
  }
}
