// The process's Prometheus metrics (prom-client): one registry per process, so that the deep modules that
// count (the media pipeline) and the HTTP layer (server/http/metrics.ts) share it; a test process that builds
// several apps shares it too, as one server process would.
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

function createMetrics() {
  const registry = new Registry();
  // Event-loop lag, heap, GC, handles, CPU: prom-client's own.
  collectDefaultMetrics({ register: registry, prefix: 'shortcams_' });
  const labelNames = ['method', 'route', 'status'] as const;
  return {
    registry,
    requests: new Counter({
      name: 'shortcams_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'shortcams_http_request_duration_seconds',
      help: 'Time to answer, by method, route pattern and status',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'shortcams_rate_limited_total',
      help: 'Requests refused by a limit (429), by route pattern',
      labelNames: ['route'],
      registers: [registry],
    }),
    replays: new Counter({
      name: 'shortcams_outbox_replays_total',
      help: 'Posts answered from a stored Idempotency-Key answer (an outbox sending again)',
      labelNames: ['route'],
      registers: [registry],
    }),
    uploadBytes: new Counter({
      name: 'shortcams_upload_bytes_total',
      help: 'Video bytes received (tus PATCH and multipart bodies)',
      registers: [registry],
    }),
    transcodeSeconds: new Histogram({
      name: 'shortcams_transcode_seconds',
      help: 'ffmpeg runs of the media pipeline, by what they made',
      labelNames: ['stage'],
      buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900],
      registers: [registry],
    }),
  };
}

let shared: ReturnType<typeof createMetrics> | undefined;
export const metrics = () => {
  shared ??= createMetrics();
  return shared;
};
