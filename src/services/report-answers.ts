import { AsyncLocalStorage } from 'node:async_hooks';
import type { AccountSnapshot } from '../engine/account-snapshot.js';
import { objectId } from '../engine/derived-cache.js';
import type { FxTable } from '../engine/fx-table.js';
import type { ReportQuery } from './report-query.js';

/** How much is kept per snapshot, whichever is reached first. */
export interface AnswerLimits {
  answers: number;
  bytes: number;
}

/**
 * Every report of a dashboard with a few queries each, and a few answers that list every paying
 * customer of a 100,000-customer account beside them.
 */
const DEFAULT_LIMITS: AnswerLimits = { answers: 64, bytes: 64 * 1024 * 1024 };

/** A report's answer as sent: serialized once, however many requests it answers. */
export type Answer = Buffer;

/** The answers of one snapshot, and how many bytes the kept ones that are made hold. */
interface Kept {
  answers: Map<string, Promise<Answer>>;
  bytes: number;
}

/** One report request under way: what it asked, and what its inputs turned out to be. */
interface Asked {
  request: string;
  /** How many times the report read its inputs; an answer of more than one read is not kept. */
  reads: number;
  /**
   * Set once the request has its answer: what it started and left behind (a pooled connection
   * opened meanwhile) keeps this context, and must neither wait on nor register answers.
   */
  done: boolean;
  /** Where its answer goes once made, and the requests waiting for it. */
  pending?: {
    kept: Kept;
    key: string;
    promise: Promise<Answer>;
    settle: Settle;
  };
}

interface Settle {
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

/** Thrown out of the report, by its inputs, when the answer is already known or being made. */
class Known extends Error {
  constructor(readonly answer: Promise<Answer>) {
    super('The answer of these inputs is kept');
  }
}

/**
 * Answers of reports kept per snapshot (docs/decisions.md, "Report answers are kept per
 * snapshot"). A report's answer depends only on its request, the snapshot, the exchange rates and
 * the query parsed against the account's settings (which holds its base currency, resolved
 * segments and plan groups, and today): when those are the same objects and values, the answer
 * is the same. So a report run through `answer` learns, once its inputs are read, whether an
 * answer of the same inputs is kept or under way, and is then cut short and given it; readers of
 * an unchanged snapshot (a dashboard several people watch, the previous snapshot answered during
 * a stream of writes) pay for the answer once. An answer is kept as the bytes sent, serialized
 * once, and answers go with their snapshot.
 */
export function createReportAnswers(limits: AnswerLimits = DEFAULT_LIMITS) {
  const storage = new AsyncLocalStorage<Asked>();
  const bySnapshot = new WeakMap<AccountSnapshot, Kept>();

  function keptOf(snapshot: AccountSnapshot): Kept {
    let kept = bySnapshot.get(snapshot);
    if (kept === undefined) {
      kept = { answers: new Map(), bytes: 0 };
      bySnapshot.set(snapshot, kept);
    }
    return kept;
  }

  /**
   * Keeps a request's answer once made, unless its entry was dropped meanwhile, it read its inputs
   * more than once, or it alone passes the byte limit; one that would take the snapshot's answers
   * past it drops the others first.
   */
  function keep({ kept, key, promise }: NonNullable<Asked['pending']>, answer: Answer, oneRead: boolean) {
    if (kept.answers.get(key) !== promise) return;
    if (!oneRead || answer.length > limits.bytes) {
      kept.answers.delete(key);
      return;
    }
    if (kept.bytes + answer.length > limits.bytes) {
      for (const other of [...kept.answers.keys()]) if (other !== key) kept.answers.delete(other);
      kept.bytes = 0;
    }
    kept.bytes += answer.length;
  }

  return {
    /**
     * Runs a report, or gives the answer kept for the same inputs. `request` names the report
     * and everything its caller asked (path and query); the rest of the key comes from its inputs.
     */
    async answer(request: string, run: () => Promise<Answer>): Promise<Answer> {
      const asked: Asked = { request, reads: 0, done: false };
      try {
        const answer = await storage.run(asked, run);
        if (asked.pending) {
          keep(asked.pending, answer, asked.reads === 1);
          asked.pending.settle.resolve(answer);
        }
        return answer;
      } catch (error) {
        if (error instanceof Known) return error.answer;
        asked.pending?.settle.reject(error);
        throw error;
      } finally {
        // The context outlives the request in what it started; it must hold no snapshot's answers.
        asked.done = true;
        asked.pending = undefined;
      }
    },

    /**
     * Called by a report's inputs once read: throws the kept answer of the same inputs, or
     * registers this request as the one making it. Outside `answer` (exports, tests), nothing.
     */
    reuse(inputs: { snapshot: AccountSnapshot; table: FxTable; query: ReportQuery }): void {
      const asked = storage.getStore();
      if (asked === undefined || asked.done) return;
      asked.reads += 1;
      if (asked.reads > 1) return;
      const kept = keptOf(inputs.snapshot);
      const { answers } = kept;
      const key = `${asked.request}\n${objectId(inputs.table)}\n${JSON.stringify(inputs.query)}`;
      const known = answers.get(key);
      if (known) throw new Known(known);
      let settle!: Settle;
      const answer = new Promise<Answer>((resolve, reject) => {
        settle = { resolve, reject };
      });
      // Nobody else may be waiting: a rejection with no reader must not end the process.
      answer.catch(() => {
        if (answers.get(key) === answer) answers.delete(key);
      });
      if (answers.size >= limits.answers) {
        answers.clear();
        kept.bytes = 0;
      }
      answers.set(key, answer);
      asked.pending = { kept, key, promise: answer, settle };
    },
  };
}

export type ReportAnswers = ReturnType<typeof createReportAnswers>;
