#!/bin/bash
# Static serving against nginx on the same machine (issue 2 asks for at least 0.5x nginx; issue 8's bench).
# The product itself (`node server/index.ts`) serves the same build directory nginx serves, with
# WEB_WORKERS=auto (the default) and, for reference, WEB_WORKERS=0 (one process). Same wrk settings for all,
# interleaved rounds so background load hits every contender alike; the median ratio is printed at the end.
#
# Needs Debian's nginx-light and wrk: apt-get install -y nginx-light wrk.
# Usage: bench/static-serving/run.sh [seconds per run, default 8] [rounds, default 3] [build dir]
#   Without a build dir the page is a generated 30 KB HTML file (the figures of docs/engineering.md#speed-notes were measured with it).
#   With one (e.g. data/builds/current) the build is copied and PAGE (default /news/) is requested.
#   REFERENCES=1 adds Hono answering from memory and a bare node server (servers.ts), single processes, a bare
#   node server in two processes on one port (as the product serves), and nginx with sendfile off: what Node
#   can reach at all, and what nginx does when it copies each answer from user space as Node must.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"
DURATION="${1:-8}"
ROUNDS="${2:-3}"
SOURCE="${3:-}"
WRK=(wrk -t1 -c50 --latency)
BUILD_ID=20260101T000000000Z-000

for tool in /usr/sbin/nginx wrk; do
  command -v "$tool" >/dev/null || { echo "!!! $tool is missing (apt-get install -y nginx-light wrk): no reference, no ratio." >&2; exit 1; }
done

WORK="$(mktemp -d /tmp/bench-static.XXXXXX)"
# mktemp makes it 0700: nginx's workers (www-data when started as root) would answer 403 for every file.
chmod 755 "$WORK"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# One build directory per server, same bytes: the product writes its compressed forms beside the files.
mkdir -p "$WORK/site"
if [ -n "$SOURCE" ]; then
  cp -rL "$SOURCE/." "$WORK/site/"
  find "$WORK/site" \( -name '*.br' -o -name '*.gz' \) -delete
  PAGE="${PAGE:-/news/}"
else
  node -e "const w=['measure','probe','coordinate','laser','scan','tolerance','datum','surface'];let s='';for(let i=0;s.length<29800;i++)s+=w[(i*7)%w.length]+' ';require('fs').writeFileSync('$WORK/site/index.html','<!DOCTYPE html><html><head><title>Bench</title></head><body><p>'+s+'</p></body></html>')"
  PAGE="${PAGE:-/}"
fi
for name in auto single; do
  mkdir -p "$WORK/$name/builds"
  cp -r "$WORK/site" "$WORK/$name/builds/$BUILD_ID"
  ln -s "$BUILD_ID" "$WORK/$name/builds/current"
done

cat > "$WORK/nginx.conf" <<CONF
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  include /etc/nginx/mime.types;
  server { listen 127.0.0.1:8088; root $WORK/site; add_header Cache-Control no-cache; }
  server { listen 127.0.0.1:8093; root $WORK/site; add_header Cache-Control no-cache; sendfile off; }
}
CONF
/usr/sbin/nginx -c "$WORK/nginx.conf"

start_product() { # name port WEB_WORKERS
  env -i PATH="$PATH" HOME="$HOME" NODE_ENV=production HOST=127.0.0.1 PORT="$2" DATA_DIR="$WORK/$1" CONTENT_DIR="$WORK/$1/content" \
    SITE_URL="http://localhost:$2" ADMIN_EMAIL=bench@example.com ADMIN_PASSWORD=bench-password-1 \
    BUILD_ON_START=false SEED_DEMO=false WEB_WORKERS="$3" LOG_LEVEL=info \
    node server/index.ts >"$WORK/$1.log" 2>&1 &
  pids+=($!)
}
start_product auto 8089 auto
start_product single 8090 0
declare -A names=([8088]=nginx [8089]="product WEB_WORKERS=auto" [8090]="product WEB_WORKERS=0")
ports=(8088 8089 8090)
if [ "${REFERENCES:-0}" = 1 ]; then
  node bench/static-serving/servers.ts hono 8091 "$WORK/site" "$PAGE" & pids+=($!)
  node bench/static-serving/servers.ts raw 8092 "$WORK/site" "$PAGE" & pids+=($!)
  node bench/static-serving/servers.ts raw 8094 "$WORK/site" "$PAGE" 2 & pids+=($!)
  names[8091]="hono from memory (1 process)"
  names[8092]="bare node (1 process)"
  names[8093]="nginx, sendfile off"
  names[8094]="bare node (2 processes)"
  ports+=(8091 8092 8093 8094)
fi

# Ready: every server answers the page, and every serving process of the auto product says it is serving.
workers=$(node -e "const os=require('os');console.log(process.platform==='linux'?Math.min(8,Math.max(0,os.availableParallelism()-1)):0)")
for _ in $(seq 1 300); do
  ok=1
  for port in "${ports[@]}"; do curl -sf -m 2 -o /dev/null "http://127.0.0.1:$port$PAGE" || ok=0; done
  [ "$(grep -c 'worker [0-9]* (pid [0-9]*) serving' "$WORK/auto.log" || true)" -ge "$workers" ] || ok=0
  [ "$ok" = 1 ] && break
  sleep 0.2
done
if [ "$ok" != 1 ]; then
  echo "servers did not come up:"
  for port in "${ports[@]}"; do echo "${names[$port]}: $(curl -s -m 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$PAGE")"; done
  cat "$WORK/auto.log" "$WORK/single.log" "$WORK/nginx-error.log"
  exit 1
fi

echo "page $PAGE ($(curl -s "http://127.0.0.1:8088$PAGE" | wc -c) bytes), ${WRK[*]} -d${DURATION}s, $(nproc) cores, $workers extra serving process(es) for auto"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for port in "${ports[@]}"; do "${WRK[@]}" -d2s "http://127.0.0.1:$port$PAGE" >/dev/null; done

ratios=()
for round in $(seq 1 "$ROUNDS"); do
  declare -A rps=()
  for port in "${ports[@]}"; do
    out="$("${WRK[@]}" -d"${DURATION}s" "http://127.0.0.1:$port$PAGE")"
    rps[$port]="$(awk '/Requests\/sec/ {print $2}' <<<"$out")"
    p99="$(awk '$1 == "99%" {print $2}' <<<"$out")"
    errors="$(grep -E 'Non-2xx|Socket errors' <<<"$out" | tr -s ' ' | tr '\n' ' ' || true)"
    printf 'round %s  %-30s %10s req/s  p99 %8s %s\n' "$round" "${names[$port]}" "${rps[$port]}" "$p99" "$errors"
  done
  ratio="$(awk -v a="${rps[8089]}" -v n="${rps[8088]}" 'BEGIN {printf "%.2f", a / n}')"
  single="$(awk -v a="${rps[8090]}" -v n="${rps[8088]}" 'BEGIN {printf "%.2f", a / n}')"
  echo "round $round  ratio to nginx: WEB_WORKERS=auto ${ratio}x, WEB_WORKERS=0 ${single}x"
  ratios+=("$ratio")
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
median="$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')"
echo "median ratio WEB_WORKERS=auto / nginx: ${median}x (target >= 0.5x)"
