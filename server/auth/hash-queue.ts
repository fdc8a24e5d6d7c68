// Password hashing under a flood (issue 32: a distributed flood of logins made every login take 16 s, scrypt
// saturating the CPU). Hashes run at most `concurrency` at a time; at most `depth` more wait their turn, and
// a request past that is refused at once (503, try again shortly) instead of waiting behind thousands. A
// device this account signed in from before waits at the front: under a flood, the attacker fails first.
export class QueueFull extends Error {}

interface Waiting {
  start: () => void;
  priority: boolean;
}

export class HashQueue {
  private running = 0;
  private readonly waiting: Waiting[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly depth: number,
  ) {}

  /** Runs `work` when a slot is free; throws QueueFull when `depth` others already wait. */
  async run<T>(work: () => Promise<T>, { priority = false }: { priority?: boolean } = {}): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.depth && !priority) throw new QueueFull();
      await new Promise<void>((start) => {
        const entry = { start, priority };
        if (priority) {
          const at = this.waiting.findIndex((w) => !w.priority);
          this.waiting.splice(at < 0 ? this.waiting.length : at, 0, entry);
        } else this.waiting.push(entry);
      });
    } else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next in line: `running` stays as it is.
      if (next) next.start();
      else this.running -= 1;
    }
  }

  get queued(): number {
    return this.waiting.length;
  }
}

/**
 * How long a real password check takes here, kept up to date: an unknown email is refused after as long a
 * wait, so the timing tells nothing, but without spending the CPU a hash costs.
 */
export class HashTiming {
  private averageMs: number;

  constructor(initialMs = 50) {
    this.averageMs = initialMs;
  }

  observe(ms: number) {
    this.averageMs = this.averageMs * 0.8 + ms * 0.2;
  }

  /** A wait as long as a check, with the jitter real checks have. */
  wait(): Promise<void> {
    const ms = this.averageMs * (0.9 + Math.random() * 0.2);
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
}
