#!/bin/bash
# Static serving against nginx on the same machine (issue 2 asks for at least 0.5x nginx).
# Needs Debian's nginx-light and wrk: apt-get install -y nginx-light wrk. Usage: bench/static-serving/run.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"
DURATION="${1:-8}"
WORK="$(mktemp -d /tmp/bench-static.XXXXXX)"
mkdir -p "$WORK/site"
# A 30 KB page, the size DESIGN.md's figures were measured with.
node -e "const w=['measure','probe','coordinate','laser','scan','tolerance','datum','surface'];let s='';for(let i=0;s.length<29800;i++)s+=w[(i*7)%w.length]+' ';require('fs').writeFileSync('$WORK/site/index.html','<!DOCTYPE html><html><head><title>Bench</title></head><body><p>'+s+'</p></body></html>')"
cat > "$WORK/nginx.conf" <<CONF
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  include /etc/nginx/mime.types;
  server { listen 127.0.0.1:8088; root $WORK/site; add_header Cache-Control no-cache; }
}
CONF
/usr/sbin/nginx -c "$WORK/nginx.conf"
pids=()
node bench/static-serving/servers.ts fast 8089 "$WORK/site" & pids+=($!)
node bench/static-serving/servers.ts hono 8090 "$WORK/site" & pids+=($!)
node bench/static-serving/servers.ts raw 8091 "$WORK/site" & pids+=($!)
cleanup() { kill "${pids[@]}" 2>/dev/null || true; kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
sleep 2
names=([8088]=nginx [8089]=fast-path [8090]=hono-memory [8091]=bare-node)
for port in 8088 8089 8090 8091; do wrk -t1 -c50 -d2s "http://127.0.0.1:$port/" >/dev/null; done
# Interleaved rounds, so background load hits every contender alike.
for round in 1 2 3; do
  for port in 8088 8089 8090 8091; do
    printf '%s round %s: ' "${names[$port]}" "$round"
    wrk -t1 -c50 -d"${DURATION}s" "http://127.0.0.1:$port/" | awk '/Requests\/sec/ {print $2 " req/s"}'
  done
done
