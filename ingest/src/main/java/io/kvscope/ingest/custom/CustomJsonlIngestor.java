package io.kvscope.ingest.custom;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.filter.FilteringParserDelegate;
import com.fasterxml.jackson.core.filter.JsonPointerBasedFilter;
import com.fasterxml.jackson.core.filter.TokenFilter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import io.kvscope.ingest.json.JsonHead;
import io.kvscope.ingest.json.JsonLines;
import io.kvscope.ingest.json.JsonSupport;
import java.io.IOException;

/**
 * Any JSONL gateway log, read through the user's mapping file ({@link IngestOptions#mappingFile()}).
 * Claims a file only when a mapping is given and its {@code request_id} pointer resolves on one of
 * the first lines; it then outranks the built-in formats, since the user asked for it explicitly.
 * Each line is parsed as a tree (pointers may reach anywhere), bounded by the line length.
 *
 * <p>An unusable mapping file makes {@link #detect} and {@link #parse} throw {@link
 * InvalidMappingException}: a configuration error that should stop the run, naming the file.
 */
public final class CustomJsonlIngestor implements Ingestor {

  /** Above every built-in JSON format (LiteLLM claims 90 at most). */
  static final int EXPLICIT_MAPPING_SCORE = 95;

  private final JsonFactory json = JsonSupport.newFactory();
  private final ObjectMapper mapper = new ObjectMapper(JsonSupport.newFactory())
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  @Override
  public String name() {
    return "custom-jsonl";
  }

  @Override
  public String description() {
    return "JSON lines of any gateway, mapped to canonical fields by a --mapping file of JSON pointers";
  }

  @Override
  public int detect(Sniff sniff, IngestOptions options) {
    if (options.mappingFile() == null) {
      return 0;
    }
    FieldMapping mapping = FieldMapping.load(options.mappingFile(), mapper);
    for (String line : JsonHead.lines(sniff, 3)) {
      if (resolvesToValue(line, mapping)) {
        return EXPLICIT_MAPPING_SCORE;
      }
    }
    return 0;
  }

  /** Streams the line only as far as the request id, so a cut multi-megabyte first line still counts. */
  private boolean resolvesToValue(String line, FieldMapping mapping) {
    try (JsonParser parser = new FilteringParserDelegate(json.createParser(line),
        new JsonPointerBasedFilter(mapping.requestIdPointer()), TokenFilter.Inclusion.ONLY_INCLUDE_ALL, false)) {
      JsonToken token = parser.nextToken();
      return token != null && token.isScalarValue() && token != JsonToken.VALUE_NULL && !parser.getText().isBlank();
    } catch (IOException cutOrInvalid) {
      return false;
    }
  }

  @Override
  public void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    if (options.mappingFile() == null) {
      throw new IllegalArgumentException("custom JSONL needs a mapping file (--mapping) to read " + file.name());
    }
    FieldMapping mapping = FieldMapping.load(options.mappingFile(), mapper);
    JsonLines.forEach(file, sink, (line, number) -> {
      JsonNode tree = mapper.readTree(line);
      if (tree == null || !tree.isContainerNode()) {
        throw new IllegalArgumentException("not a JSON object");
      }
      sink.accept(mapping.apply(tree).sourceFile(file.name()).sourceLine(number).build());
    });
  }

  @Override
  public boolean resumableByLine() {
    return true;
  }
}
