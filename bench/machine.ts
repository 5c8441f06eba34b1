import os from 'node:os';

export interface Machine {
  cores: number;
  cpu: string;
  memoryBytes: number;
  os: string;
  node: string;
  postgres: string | null;
  /** os.loadavg() at the start and at the end of the run: other work on the machine skews the figures. */
  loadAverage: [number[], number[]];
}

/** This machine, at the end of a run whose load average at the start was `loadAtStart`. */
export function thisMachine(loadAtStart: number[], postgres: string | null): Machine {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    memoryBytes: os.totalmem(),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres,
    loadAverage: [loadAtStart, os.loadavg()],
  };
}

/** The machine in one sentence for a results page, load averages included. */
export function machineText(machine: Machine): string {
  const loads = machine.loadAverage.map((load) => load.map((value) => value.toFixed(1)).join(', '));
  return (
    `Machine: ${machine.cores} cores (${machine.cpu}), ${(machine.memoryBytes / 2 ** 30).toFixed(1)} GiB, ` +
    `${machine.os}, Node ${machine.node}${machine.postgres ? `, PostgreSQL ${machine.postgres}` : ''}. ` +
    `Load average (1, 5, 15 min) ${loads.join(' at the start, ')} at the end.`
  );
}
