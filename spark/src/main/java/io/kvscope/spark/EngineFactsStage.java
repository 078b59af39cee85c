package io.kvscope.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.trim;
import static org.apache.spark.sql.functions.when;

import io.kvscope.model.join.EngineFacts;
import io.kvscope.index.nodes.Epochs;
import io.kvscope.index.nodes.NodeClocks;
import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.model.join.RoomRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Stage 6, the PD join and the engine facts: which engine lines belong to each request, folded into
 * its {@link EngineFacts} by the rules the single-machine index uses, never by time. A request's
 * lines are those logged under its own rid (the decode side, or both sides where one rid is passed
 * to both), then, for each bootstrap room those lines name, what the model's {@link RoomRule} joins:
 * the prefill rid logged with the room and the room's lines that name no rid.
 *
 * <p>Only small columns move: rids, rooms and engine lines, never texts. A room reused by thousands
 * of warm-up requests would make one huge group, so each room keeps at most
 * {@link RoomRule#MAX_RIDS_PER_ROOM} + 2 of its rids (by a window limited per room), which is all the
 * rule reads. Config epochs, node aliases, version records and log hours are few (nodes, restarts
 * and hours, not requests): they go to every task, which builds the index's {@link Epochs} from them. The node
 * clocks stay unknown here, as in the single-machine join: they are learned from the joined
 * requests afterwards (the first lines each node logged about each request, written beside the
 * facts), and only place version records on the gateway's clock.
 */
final class EngineFactsStage {

  static final String FOLDER = "engine_facts";
  static final RecordRows<EngineFacts> FACTS = RecordRows.of(EngineFacts.class);

  /**
   * A request's facts, keyed by its merge key (its engine rid: only requests with one have facts),
   * and each node's first line about it (node-local time, the node under its report name), from
   * which the node clocks are learned.
   */
  static final StructType SCHEMA = new StructType()
      .add(MergeStage.KEY, DataTypes.StringType, false)
      .add("ambiguous_rooms", DataTypes.IntegerType, false)
      .add("facts", FACTS.schema(), false)
      .add("first_seen", DataTypes.createArrayType(new StructType()
          .add("node", DataTypes.StringType, false).add("time", DataTypes.LongType, false), false), false);

  private static final String REQUEST = "request";
  private static final String RID = "rid";
  private static final String ROOM = "bootstrap_room";
  private static final String EVENT = "event";

  private static final StructType FOLLOWED = new StructType()
      .add(REQUEST, DataTypes.StringType, false)
      .add(ROOM, DataTypes.LongType, false)
      .add("joins", DataTypes.createArrayType(DataTypes.StringType, false), false)
      .add("takes_ridless", DataTypes.BooleanType, false)
      .add("ambiguous", DataTypes.IntegerType, false)
      .add("room_rids", DataTypes.IntegerType, false)
      .add("room_requests", DataTypes.IntegerType, false);

  private EngineFactsStage() {}

  /** Writes {@code engine_facts/}; returns how many requests have engine facts. */
  static long run(SparkSession spark, String out) {
    Dataset<Row> events = read(spark, out, IngestOutput.ENGINE_EVENTS)
        .withColumn(EVENT, struct(allColumns(IngestOutput.ENGINE_EVENTS)));
    String rid = CanonicalField.ENGINE_RID.column();
    Dataset<Row> requestRids = spark.read().schema(RequestRows.SCHEMA).parquet(out + "/" + MergeStage.FOLDER)
        .select(col(rid).as(REQUEST)).where(col(REQUEST).isNotNull().and(trim(col(REQUEST)).notEqual(""))).distinct();

    Dataset<Row> own = events.join(requestRids, events.col(RID).equalTo(requestRids.col(REQUEST)))
        .select(col(REQUEST), col(EVENT));
    // The rooms each request's own lines name, none for a request naming more than the rule follows.
    Dataset<Row> requestRooms = own.where(col(EVENT + "." + ROOM).isNotNull())
        .select(col(REQUEST), col(EVENT + "." + ROOM).as(ROOM)).distinct();
    requestRooms = requestRooms.withColumn("rooms", count(lit(1)).over(Window.partitionBy(REQUEST)))
        .where(col("rooms").leq(RoomRule.MAX_ROOMS)).drop("rooms");

    // What each of those rooms shows: its first rids, each marked whether a request claims it.
    Dataset<Row> ridsAtRoom = events.where(col(ROOM).isNotNull().and(col(RID).isNotNull()))
        .select(col(ROOM), col(RID)).distinct()
        .join(requestRooms.select(ROOM).distinct(), ROOM, "left_semi")
        .withColumn("n", row_number().over(Window.partitionBy(ROOM).orderBy(RID)))
        .where(col("n").leq(RoomRule.MAX_RIDS_PER_ROOM + 2));
    Dataset<Row> rooms = ridsAtRoom
        .join(requestRids, ridsAtRoom.col(RID).equalTo(requestRids.col(REQUEST)), "left")
        .groupBy(ROOM).agg(collect_list(struct(col(RID), col(REQUEST).isNotNull().as("is_request"))).as("rids"));
    Dataset<Row> followed = requestRooms.join(rooms, ROOM)
        .flatMap(follow(), Encoders.row(FOLLOWED)).cache();
    try {
      Dataset<Row> joinedRids = followed.select(col(REQUEST), explode(col("joins")).as("joined")).distinct();
      Dataset<Row> byRid = joinedRids.join(events, joinedRids.col("joined").equalTo(events.col(RID)))
          .select(col(REQUEST), col(EVENT));
      Dataset<Row> ridlessRooms = followed.where(col("takes_ridless")).select(col(REQUEST), col(ROOM).as("at_room"));
      Dataset<Row> ridless = events.where(col(RID).isNull().and(col(ROOM).isNotNull()));
      Dataset<Row> byRoom = ridlessRooms.join(ridless, ridlessRooms.col("at_room").equalTo(ridless.col(ROOM)))
          .select(col(REQUEST), col(EVENT));
      // The room a request's findings name: the smallest ambiguous one (a struct's minimum is by its first field).
      Dataset<Row> ambiguous = followed.groupBy(REQUEST).agg(
          sum("ambiguous").cast(DataTypes.IntegerType).as("ambiguous_rooms"),
          min(when(col("ambiguous").equalTo(1), struct(col(ROOM), col("room_rids"), col("room_requests")))).as("ambiguity"));

      Dataset<Row> grouped = own.unionByName(byRid).unionByName(byRoom)
          .groupBy(REQUEST).agg(collect_list(col(EVENT)).as("events"))
          .join(ambiguous, REQUEST, "left");
      Broadcast<EpochRows> epochRows = JavaSparkContext.fromSparkContext(spark.sparkContext())
          .broadcast(EpochRows.read(spark, out));
      try {
        Stages.write(grouped.mapPartitions(fold(epochRows), Encoders.row(SCHEMA)), out, FOLDER);
      } finally {
        epochRows.destroy();
      }
      return spark.read().schema(SCHEMA).parquet(out + "/" + FOLDER).count();
    } finally {
      followed.unpersist();
    }
  }

  static Dataset<Row> read(SparkSession spark, String out, IngestOutput output) {
    return spark.read().schema(output.schema()).parquet(out + "/" + output.folder());
  }

  /** Every column of an output, to carry its rows whole as one struct. */
  private static Column[] allColumns(IngestOutput output) {
    return Arrays.stream(output.schema().fieldNames()).map(functions::col).toArray(Column[]::new);
  }

  /** The room rule for one request and one room it names, from the room's rids and whether a request claims each. */
  private static FlatMapFunction<Row, Row> follow() {
    return row -> {
      String request = row.getAs(REQUEST);
      Set<String> rids = new LinkedHashSet<>();
      Set<String> claimed = new HashSet<>();
      for (Row at : row.<Row>getList(row.fieldIndex("rids"))) {
        rids.add(at.getString(0));
        if (at.getBoolean(1)) {
          claimed.add(at.getString(0));
        }
      }
      RoomRule.Room room = RoomRule.follow(request, rids, claimed::contains);
      return List.of(RowFactory.create(request, row.getAs(ROOM),
          scala.jdk.javaapi.CollectionConverters.asScala(new ArrayList<>(room.joins())).toSeq(),
          room.takesRidless(), room.ambiguous() ? 1 : 0, room.rids(), room.requests())).iterator();
    };
  }

  /** Each request's joined lines folded into its facts, against the epochs built once per task. */
  private static MapPartitionsFunction<Row, Row> fold(Broadcast<EpochRows> epochRows) {
    return rows -> {
      Epochs epochs = epochRows.value().build(NodeClocks.none());
      RecordRows<EngineEvent> eventRows = RecordRows.of(EngineEvent.class);
      List<Row> facts = new ArrayList<>();
      while (rows.hasNext()) {
        Row row = rows.next();
        List<EngineEvent> events = new ArrayList<>();
        for (Row event : row.<Row>getList(row.fieldIndex("events"))) {
          events.add(eventRows.fromRow(event));
        }
        Integer ambiguous = row.getAs("ambiguous_rooms");
        Row room = row.getAs("ambiguity");
        RoomRule.Ambiguity ambiguity = room == null ? null
            : new RoomRule.Ambiguity(room.getLong(0), room.getInt(1), room.getInt(2));
        Map<String, Long> firstSeen = new TreeMap<>();
        for (EngineEvent event : events) {
          firstSeen.merge(epochs.canonical(event.node()), event.time(), Math::min);
        }
        List<Row> seen = new ArrayList<>();
        firstSeen.forEach((node, time) -> seen.add(RowFactory.create(node, time)));
        facts.add(RowFactory.create(row.getAs(REQUEST), ambiguous == null ? 0 : ambiguous,
            FACTS.toRow(EngineFacts.fold(events, ambiguity, epochs)), scala.jdk.javaapi.CollectionConverters.asScala(seen).toSeq()));
      }
      return facts.iterator();
    };
  }
}
