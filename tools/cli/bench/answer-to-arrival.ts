import { percentile } from '@storage/testing';

/**
 * Latencies from the api's answer to the delivery's arrival at the receiver, paired by key. Either may come first
 * (a delivery can arrive before the bench has read the answer's last byte): the pair is timed when both are in.
 */
export class AnswerToArrival {
  readonly latencies: number[] = [];
  private readonly answers = new Map<string, number>();
  private readonly arrivals = new Map<string, number>();

  answered(key: string, at: number): void {
    this.pair(key, at, this.arrivals, this.answers, (answer, arrival) => arrival - answer);
  }

  arrived(key: string, at: number): void {
    this.pair(key, at, this.answers, this.arrivals, (arrival, answer) => arrival - answer);
  }

  private pair(key: string, at: number, others: Map<string, number>, mine: Map<string, number>, latency: (at: number, other: number) => number): void {
    const other = others.get(key);
    if (other === undefined) mine.set(key, at);
    else {
      others.delete(key);
      this.latencies.push(latency(at, other));
    }
  }

  /** p50 / p99 / max in ms: the max shows a straggler the percentiles hide. */
  summary(): string {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return `${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 99).toFixed(1)} / ${sorted[sorted.length - 1].toFixed(1)} ms`;
  }

  p99(): number {
    return percentile(
      [...this.latencies].sort((a, b) => a - b),
      99,
    );
  }
}
