import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * `/metrics` across the processes of a node cluster (`panya serve --workers N`). The worker that
 * answers a scrape asks the primary, which gathers every worker's registry (prom-client's
 * `AggregatorRegistry`: counters and histograms summed, each metric by its own `aggregator`)
 * and answers the exposition. So any worker gives the whole node's counts.
 */

interface MetricsAsk {
  panya: 'metrics';
  id: number;
}
interface MetricsReply extends MetricsAsk {
  text?: string;
  error?: string;
}

const isMetricsMessage = (message: unknown): message is MetricsReply => (message as MetricsAsk | null)?.panya === 'metrics' && typeof (message as MetricsAsk).id === 'number';

/** Longer than prom-client's own 5 s wait for the workers, so its error arrives first. */
const REPLY_TIMEOUT_MS = 7_000;

/** In a worker: lets the primary collect `registry`, and returns the cluster-wide exposition for each scrape. */
export function clusterExposition(registry: Registry): () => Promise<string> {
  if (!cluster.isWorker) throw new Error('Cluster metrics are only collected in a cluster worker.');
  // Constructing it in a worker makes prom-client answer the primary's requests with these registries.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  let next = 0;
  const waiting = new Map<number, (reply: MetricsReply) => void>();
  process.on('message', (message: unknown) => {
    if (isMetricsMessage(message)) waiting.get(message.id)?.(message);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the primary process did not answer within ${REPLY_TIMEOUT_MS / 1000} s`));
      }, REPLY_TIMEOUT_MS);
      waiting.set(id, (reply) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (reply.text !== undefined) resolve(reply.text);
        else reject(new Error(reply.error ?? 'no metrics'));
      });
      const ask: MetricsAsk = { panya: 'metrics', id };
      process.send!(ask);
    });
}

/** In the primary: answers each worker's ask with the sum over all workers. Returns a function that stops answering. */
export function answerClusterMetrics(): () => void {
  const aggregator = new AggregatorRegistry();
  const onMessage = (worker: import('node:cluster').Worker, message: unknown) => {
    if (!isMetricsMessage(message)) return;
    const send = (reply: MetricsReply) => worker.isConnected() && worker.send(reply);
    aggregator.clusterMetrics().then(
      (text) => send({ panya: 'metrics', id: message.id, text }),
      (error: unknown) => send({ panya: 'metrics', id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  };
  cluster.on('message', onMessage);
  return () => cluster.off('message', onMessage);
}
