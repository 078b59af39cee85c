package io.kvscope.cli;

import io.kvscope.analysis.report.TraceLinks;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code --trace-url}: where the reports link a request's trace, in the operator's tracing tool. */
final class TraceUrlOption {

  @Option(names = "--trace-url", paramLabel = "TEMPLATE", converter = Template.class,
      description = "Link each finding's request to its trace: a URL with {trace_id} where the id goes, e.g. "
          + "'https://HOST/project/ID/traces/{trace_id}' (Langfuse, Phoenix, Jaeger, Tempo: see "
          + "docs/trace-links.md). Needs the index (the trace ids are there).")
  TraceLinks links = TraceLinks.NONE;

  TraceLinks links() {
    return links == null ? TraceLinks.NONE : links;
  }

  /** A template that cannot make a safe link is a usage error that says why. */
  static final class Template implements ITypeConverter<TraceLinks> {
    @Override
    public TraceLinks convert(String value) {
      try {
        return TraceLinks.of(value);
      } catch (IllegalArgumentException unsafe) {
        throw new TypeConversionException(unsafe.getMessage());
      }
    }
  }
}
