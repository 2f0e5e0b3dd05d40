/**
 * a wake-up call that is not lost: a wake() while nobody waits makes the next wait() return
 * at once. wait(ms) also returns after ms.
 */
export class Wakeup {
  #pending = false;
  #waiter: (() => void) | undefined;

  wake(): void {
    this.#pending = true;
    this.#waiter?.();
  }

  wait(ms: number): Promise<void> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiter = undefined;
        this.#pending = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiter = done;
    });
  }
}
