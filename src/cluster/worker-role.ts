import cluster from 'node:cluster';

/**
 * What a server process does besides answering requests and running jobs. A lone process does
 * everything; the primary gives these to one worker, so that N workers do each once.
 */
export interface ProcessRole {
  /** Forked by a cluster primary, which forwards the signals to stop it. */
  clusterWorker: boolean;
  /**
   * At start: creating the first account, printing the banner with its key and the setup links
   * (each print replaces the previous link), resuming the imports and uploads left running.
   */
  startUp: boolean;
  /** The periodic catch-up of connected sources and the spreadsheet sync. */
  schedules: boolean;
}

type Duty = 'startUp' | 'schedules';

// Set by the primary on the workers it forks; not a setting.
const DUTIES_VARIABLE = 'MRRLYTICS_WORKER_DUTIES';

/** The environment that gives a forked worker these duties. */
export function dutiesEnv(duties: Record<Duty, boolean>): NodeJS.ProcessEnv {
  const named = (Object.keys(duties) as Duty[]).filter((duty) => duties[duty]);
  return { [DUTIES_VARIABLE]: named.join(',') };
}

export function processRole(env: NodeJS.ProcessEnv = process.env): ProcessRole {
  if (!cluster.isWorker) return { clusterWorker: false, startUp: true, schedules: true };
  const duties = (env[DUTIES_VARIABLE] ?? '').split(',');
  return {
    clusterWorker: true,
    startUp: duties.includes('startUp'),
    schedules: duties.includes('schedules'),
  };
}
