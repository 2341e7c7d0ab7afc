/**
 * A wait that ends at its timeout or at `wake()`, whichever comes first: an idle worker sleeps
 * on a timer and an enqueue wakes it, so it neither spins nor leaves new jobs waiting. A wake
 * while nobody sleeps is kept for the next sleep.
 */
export class Sleeper {
  private pending = false;
  private resume: (() => void) | null = null;

  sleep(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.finish(), ms);
      this.resume = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  wake(): void {
    if (this.resume) this.finish();
    else this.pending = true;
  }

  private finish(): void {
    const resume = this.resume;
    this.resume = null;
    this.pending = false;
    resume?.();
  }
}
