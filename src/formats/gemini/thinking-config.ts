import type { IRRequest, ReasoningEffort } from "../../ir/types";
import { effortFromBudget } from "../reasoning-budget";

/**
 * Reasoning settings → Gemini's thinkingConfig (https://ai.google.dev/gemini-api/docs/thinking).
 * Gemini 3 and later take a thinking level; Gemini 2.5 takes a token budget; earlier models do
 * not think. The budgets follow Google's table for OpenAI's reasoning_effort on 2.5
 * (https://ai.google.dev/gemini-api/docs/openai#thinking: low 1,024, medium 8,192, high 24,576,
 * none 0); levels a model lacks are rounded up to the next it has.
 */

type Level = "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";
export type ThinkingConfig = { includeThoughts?: boolean; thinkingLevel?: Level; thinkingBudget?: number };

const LEVEL: Record<ReasoningEffort, Level> = { none: "MINIMAL", minimal: "MINIMAL", low: "LOW", medium: "MEDIUM", high: "HIGH", xhigh: "HIGH", max: "HIGH" };
const ORDER: readonly Level[] = ["MINIMAL", "LOW", "MEDIUM", "HIGH"];

const BUDGET: Record<ReasoningEffort, number> = { none: 0, minimal: 1024, low: 1024, medium: 8192, high: 24_576, xhigh: 24_576, max: 24_576 };
/** 2.5 Pro cannot stop thinking and thinks at most 32,768 tokens; Flash and Flash-Lite at most 24,576. */
const PRO_RANGE = { min: 128, max: 32_768 };
const FLASH_RANGE = { min: 0, max: 24_576 };

type Family = { kind: "level"; levels: readonly Level[] } | { kind: "budget"; range: { min: number; max: number } } | { kind: "none" };

/** The model's thinking family, by its id: `gemini-<major>[.<minor>]-<variant>`; an id that says no version is taken for the newest. */
export function thinkingFamily(model: string): Family {
  const match = /gemini-(\d+)(?:\.(\d+))?-?([a-z-]*)/i.exec(model);
  if (!match) return { kind: "level", levels: ORDER };
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  const variant = (match[3] ?? "").toLowerCase();
  const pro = variant.startsWith("pro");
  if (major < 2 || (major === 2 && minor < 5)) return { kind: "none" };
  if (major === 2) return { kind: "budget", range: pro ? PRO_RANGE : FLASH_RANGE };
  // Gemini 3 Pro takes low and high; later Pro models add medium; Flash models take all four
  if (pro && major === 3 && minor === 0) return { kind: "level", levels: ["LOW", "HIGH"] };
  return { kind: "level", levels: pro ? ["LOW", "MEDIUM", "HIGH"] : ORDER };
}

const clamp = (n: number, range: { min: number; max: number }) => Math.min(range.max, Math.max(range.min, n));

function levelFor(effort: ReasoningEffort, levels: readonly Level[]): Level {
  const wanted = ORDER.indexOf(LEVEL[effort]);
  return ORDER.slice(wanted).find((level) => levels.includes(level)) ?? levels.at(-1) ?? "HIGH";
}

/** Undefined when the client asked nothing of reasoning (the model's default applies) or the model does not think. */
export function encodeThinkingConfig(req: Pick<IRRequest, "reasoning" | "maxOutputTokens">, model: string): ThinkingConfig | undefined {
  const r = req.reasoning;
  if (!r || (r.enabled === undefined && r.effort === undefined && r.maxTokens === undefined)) return undefined;
  const family = thinkingFamily(model);
  if (family.kind === "none") return undefined;
  const off = r.enabled === false || r.effort === "none";
  const effort: ReasoningEffort = off ? "none" : (r.effort ?? (r.maxTokens !== undefined ? effortFromBudget(r.maxTokens, req.maxOutputTokens) : "medium"));
  const thoughts = off ? {} : { includeThoughts: true };
  if (family.kind === "level") return { ...thoughts, thinkingLevel: levelFor(effort, family.levels) };
  const budget = !off && r.maxTokens !== undefined ? r.maxTokens : BUDGET[effort];
  return { ...thoughts, thinkingBudget: clamp(budget, family.range) };
}
