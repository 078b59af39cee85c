package io.kvscope.ingest.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import java.io.IOException;
import java.time.Instant;

/**
 * An ISO-8601 instant ({@code 2026-08-27T14:03:12.345Z}) read back into an {@link Instant}, for the
 * files kvscope writes (report.json, truth.json); Jackson 2 reads no java.time type by itself.
 */
public final class IsoInstantDeserializer extends StdScalarDeserializer<Instant> {

  public IsoInstantDeserializer() {
    super(Instant.class);
  }

  @Override
  public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    return Instant.parse(p.getValueAsString());
  }
}
