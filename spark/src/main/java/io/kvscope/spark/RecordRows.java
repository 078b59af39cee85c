package io.kvscope.spark;

import java.io.Serializable;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A Java record type as Spark rows: one column per record component, in declaration order, named
 * in snake_case ({@code sourceLine} -> {@code source_line}). The record's components are the one
 * list of columns, so a field added to an engine event is a column of {@code engine_events} with
 * no change here. Strings, numbers and booleans map to Spark's types, enums to their names, lists
 * of strings to arrays and nested records to structs. Serializable, so tasks can use it; the
 * reflection it needs is redone in each JVM.
 */
final class RecordRows<T extends Record> implements Serializable {

  private static final long serialVersionUID = 1L;

  /**
   * Nested records' rows, one per record type and JVM: a struct column is read or written per
   * row, and looking a type's components up again for every nested record (new accessor methods,
   * each setting up its reflective call on first use) cost the engine facts' fold a tenth of its CPU.
   */
  private static final ClassValue<RecordRows<?>> NESTED = new ClassValue<>() {
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected RecordRows<?> computeValue(Class<?> nested) {
      RecordRows<?> rows = new RecordRows<>((Class<? extends Record>) nested);
      try {
        rows.constructor(); // and its components: set before the instance is shared between task threads
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException("no canonical constructor for " + nested.getSimpleName(), e);
      }
      return rows;
    }
  };

  private final Class<T> type;
  private transient RecordComponent[] components;
  private transient Constructor<T> constructor;

  RecordRows(Class<T> type) {
    this.type = type;
  }

  static <R extends Record> RecordRows<R> of(Class<R> type) {
    return new RecordRows<>(type);
  }

  Class<T> type() {
    return type;
  }

  StructType schema() {
    return structOf(type);
  }

  Row toRow(T record) {
    RecordComponent[] parts = components();
    Object[] values = new Object[parts.length];
    try {
      for (int i = 0; i < parts.length; i++) {
        values[i] = toColumn(parts[i].getAccessor().invoke(record));
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read a " + type.getSimpleName(), e);
    }
    return RowFactory.create(values);
  }

  T fromRow(Row row) {
    RecordComponent[] parts = components();
    Object[] values = new Object[parts.length];
    for (int i = 0; i < parts.length; i++) {
      values[i] = fromColumn(row, i, parts[i].getType(), parts[i].getGenericType());
    }
    try {
      return constructor().newInstance(values);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot build a " + type.getSimpleName() + " from a row", e);
    }
  }

  private RecordComponent[] components() {
    if (components == null) {
      components = type.getRecordComponents();
    }
    return components;
  }

  private Constructor<T> constructor() throws NoSuchMethodException {
    if (constructor == null) {
      Class<?>[] types = java.util.Arrays.stream(components()).map(RecordComponent::getType).toArray(Class<?>[]::new);
      constructor = type.getDeclaredConstructor(types);
    }
    return constructor;
  }

  private static StructType structOf(Class<?> recordType) {
    List<StructField> fields = new ArrayList<>();
    for (RecordComponent part : recordType.getRecordComponents()) {
      Class<?> java = part.getType();
      fields.add(DataTypes.createStructField(column(part.getName()), sparkType(java, part.getGenericType()),
          !java.isPrimitive()));
    }
    return DataTypes.createStructType(fields);
  }

  /** {@code sourceLine} -> {@code source_line}: the canonical columns are named this way too. */
  static String column(String component) {
    return component.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
  }

  private static DataType sparkType(Class<?> java, Type generic) {
    if (java == String.class || java.isEnum()) {
      return DataTypes.StringType;
    }
    if (java == long.class || java == Long.class) {
      return DataTypes.LongType;
    }
    if (java == int.class || java == Integer.class) {
      return DataTypes.IntegerType;
    }
    if (java == double.class || java == Double.class) {
      return DataTypes.DoubleType;
    }
    if (java == boolean.class || java == Boolean.class) {
      return DataTypes.BooleanType;
    }
    if (java == List.class && generic instanceof ParameterizedType list
        && list.getActualTypeArguments()[0] == String.class) {
      return DataTypes.createArrayType(DataTypes.StringType, false);
    }
    if (java.isRecord()) {
      return structOf(java);
    }
    throw new IllegalArgumentException("no Spark column type for " + generic.getTypeName());
  }

  private static Object toColumn(Object value) {
    return switch (value) {
      case null -> null;
      case Enum<?> e -> e.name();
      case List<?> list -> scala.jdk.javaapi.CollectionConverters.asScala(list).toSeq();
      case Record nested -> nestedRow(nested);
      default -> value;
    };
  }

  @SuppressWarnings("unchecked")
  private static <R extends Record> Row nestedRow(R nested) {
    return ((RecordRows<R>) NESTED.get(nested.getClass())).toRow(nested);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object fromColumn(Row row, int i, Class<?> java, Type generic) {
    if (row.isNullAt(i)) {
      return null;
    }
    if (java.isEnum()) {
      return Enum.valueOf((Class<? extends Enum>) java, row.getString(i));
    }
    if (java == List.class) {
      return List.copyOf(row.getList(i));
    }
    if (java.isRecord()) {
      return NESTED.get(java).fromRow(row.getStruct(i));
    }
    return row.get(i);
  }
}
