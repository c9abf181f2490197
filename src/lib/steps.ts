/**
 * A task of several steps that each leave something behind (a file stored, a reservation made, a
 * row written), as one ordered list: each step with its undo. When a step fails, the undo of every
 * step done runs in reverse order, so a failed task leaves nothing of itself; then the step's
 * failure is thrown, as its `failed` says (an ApiError the caller can answer), else as it came.
 */
export type Step = {
  run: () => Promise<unknown>;
  /** Undoes the step once it is done; its own failure is ignored (an undo is a best effort: what it leaves, a sweep finds). */
  undo?: () => Promise<unknown>;
  /** What the step's failure is thrown as. */
  failed?: (e: unknown) => unknown;
};

export async function runSteps(steps: readonly Step[]): Promise<void> {
  const done: Step[] = [];
  for (const step of steps) {
    try {
      await step.run();
    } catch (e) {
      for (const d of done.reverse()) await d.undo?.().catch(() => undefined);
      throw step.failed ? step.failed(e) : e;
    }
    done.push(step);
  }
}
