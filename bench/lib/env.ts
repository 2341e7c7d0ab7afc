// Bench settings from the environment (BENCH_*): a positive number, or the default.

export function envNumber(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

export const envInt = (name: string, fallback: number): number => Math.floor(envNumber(name, fallback));
