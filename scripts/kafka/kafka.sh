#!/usr/bin/env bash
# Run a real single-node Apache Kafka broker (KRaft, no ZooKeeper) from Maven Central jars, without Docker.
# Usage: kafka.sh fetch|start|stop|status
# Env: KAFKA_HOME (default <repo>/.data/kafka), KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093), JAVA_HOME,
# KAFKA_ADVERTISED_PORT (KAFKA_PORT: the port clients are told to use, a proxy's in a test).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
KAFKA_HOME="${KAFKA_HOME:-$ROOT/.data/kafka}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_ADVERTISED_PORT="${KAFKA_ADVERTISED_PORT:-$KAFKA_PORT}"
LIBS="$KAFKA_HOME/libs"
DATA="$KAFKA_HOME/data"
CONF="$KAFKA_HOME/config/server.properties"
LOG="$KAFKA_HOME/logs/kafka.log"
PIDFILE="$KAFKA_HOME/kafka.pid"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

say() { echo "kafka: $*"; }

# Pid of our broker if it is alive; checks the command line so a recycled pid is not mistaken for it.
running_pid() {
  local pid
  pid="$(cat "$PIDFILE" 2>/dev/null)" || return 1
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'kafka\.Kafka' \
    && echo "$pid"
}

cmd_fetch() {
  # A marker written only after a complete copy, so an interrupted download is redone, not half-used.
  if [[ -f "$LIBS/.complete" ]]; then say "jars already in $LIBS"; return; fi
  say "fetching Kafka jars from Maven Central into $LIBS (first time only) ..."
  rm -rf "$LIBS.tmp" && mkdir -p "$LIBS.tmp"
  # (sed drops the stray colour codes Debian's Maven 3.8 prints even in batch mode; pipefail keeps mvn's status)
  mvn -B -q -f "$HERE/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$LIBS.tmp" 2>&1 \
    | sed 's/\x1b\[[0-9;]*m//g'
  rm -rf "$LIBS" && mv "$LIBS.tmp" "$LIBS" && touch "$LIBS/.complete"
  say "fetched $(ls "$LIBS"/*.jar | wc -l) jars"
}

write_config() {
  mkdir -p "$(dirname "$CONF")" "$DATA" "$(dirname "$LOG")"
  cat >"$CONF" <<PROPS
# Written by scripts/kafka/kafka.sh on every start; edit the script, not this file.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_ADVERTISED_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
# One broker, so internal topics cannot have more than one replica.
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
# Consumers in tests should not wait 3 s for a rebalance.
group.initial.rebalance.delay.ms=0
# Kafka's default, stated because consumers rely on it: their 6 s session (kafka-transport.ts) is this minimum,
# so a consumer killed without leaving its group gives its partitions up within seconds.
group.min.session.timeout.ms=6000
num.partitions=3
log.dirs=$DATA
PROPS
}

cmd_start() {
  local pid
  if pid="$(running_pid)" && grep -q 'Kafka Server started' "$LOG" 2>/dev/null; then
    say "already running (pid $pid)"; echo "KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"; return
  fi
  # Alive but not (yet) started, e.g. a start still in progress elsewhere: do not start a second one.
  if pid="$(running_pid)"; then say "pid $pid is running but not ready; run '$0 stop' first"; exit 1; fi
  cmd_fetch
  write_config
  local cp="$LIBS/*"
  # Format the KRaft storage once; later starts reuse it (and --ignore-formatted makes a repeat harmless).
  if [[ ! -f "$DATA/meta.properties" ]]; then
    local id; id="$("$JAVA" -cp "$cp" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n1)"
    say "formatting storage in $DATA (cluster id $id)"
    "$JAVA" -cp "$cp" -Dlog4j.configuration="file:$HERE/log4j.properties" \
      kafka.tools.StorageTool format -t "$id" -c "$CONF" --ignore-formatted >/dev/null
  fi
  say "starting broker on 127.0.0.1:$KAFKA_PORT (log: $LOG)"
  : >"$LOG"   # fresh log, so the readiness check below cannot match a previous run's line
  rm -f "$PIDFILE"
  # setsid+nohup: the broker outlives the calling shell/CI step. The inner shell writes its own pid and
  # then execs java, so the pid file holds the JVM's pid whether or not setsid had to fork.
  PIDFILE="$PIDFILE" setsid nohup bash -c 'echo $$ >"$PIDFILE"; exec "$@"' kafka \
    "$JAVA" -Xms256m -Xmx512m -cp "$cp" -Dlog4j.configuration="file:$HERE/log4j.properties" \
    kafka.Kafka "$CONF" >>"$LOG" 2>&1 </dev/null &
  local deadline=$((SECONDS + 90))
  until grep -q 'Kafka Server started' "$LOG"; do
    sleep 0.5
    # Give up if the JVM has died (its pid file is written before java starts) or on timeout.
    if { [[ -s "$PIDFILE" ]] && ! running_pid >/dev/null; } || ((SECONDS >= deadline)); then
      say "broker did not start; last log lines:"; tail -n 40 "$LOG" >&2
      cmd_stop >/dev/null || true
      exit 1
    fi
  done
  say "started (pid $(cat "$PIDFILE"))"
  echo "KAFKA_BROKERS=127.0.0.1:$KAFKA_PORT"
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then say "not running"; rm -f "$PIDFILE"; return; fi
  say "stopping pid $pid"
  kill -TERM "$pid" 2>/dev/null || true   # SIGTERM = controlled shutdown, keeps the log clean
  for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then say "still alive after 30 s, sending SIGKILL"; kill -KILL "$pid" || true; fi
  rm -f "$PIDFILE"
  say "stopped"
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then say "running (pid $pid) on 127.0.0.1:$KAFKA_PORT"; else say "not running"; exit 1; fi
}

case "${1:-}" in
  fetch) cmd_fetch ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *) echo "usage: $0 fetch|start|stop|status" >&2; exit 2 ;;
esac
