/**
 * What a mutator hands to `explain` for one workload (issue #7): the model's inputs with their
 * sources, the durations it derived, the settings as written and as patched, and the two
 * timelines. Each mutator builds this from its own plan (fn/mutators/<id>/explain.ts); the
 * `explain` command adds the resource, the changes and the findings (fn/explain/explain.ts).
 */
import type { Spec } from '../config/schema.ts';
import type { PodTemplate } from '../core/kubeObject.ts';
import type { Timeline } from './timeline.ts';

/**
 * One input of the model: a number of seconds (W, R, B …) or a decision, and where it came from.
 */
export interface ModelInput {
  readonly symbol?: string;
  readonly name: string;
  readonly value: number | string | boolean;
  /** `s` when the value is seconds. */
  readonly unit?: 's';
  readonly source: string;
}

/** One duration the timing model derived: the mutator's own `Derived`, unchanged. */
export interface ModelOutput {
  readonly symbol: 'S' | 'R' | 'G' | 'M' | 'D' | 'T';
  readonly name: string;
  readonly seconds: number;
  readonly formula: string;
  readonly explanation: string;
}

/** A setting's value in one state: raw value, how it reads, and where it came from. */
export interface SettingValue {
  readonly value: number | string | boolean | null;
  readonly display: string;
  readonly source: string;
}

/** The plan's number for a setting, and how the patched value must relate to it. */
export interface Planned {
  readonly symbol: ModelOutput['symbol'] | 'mode';
  readonly value: number | string | boolean;
  readonly relation: '=' | '≥';
}

/** A setting the shutdown depends on, as written and as patched, and what the plan wanted. */
export interface SettingRow {
  readonly name: string;
  readonly asWritten: SettingValue;
  readonly patched: SettingValue;
  /**
   * True when the run wrote this setting: its value or where it comes from changed (an Istio
   * default made explicit keeps its value but is now the manifest's), as "Fields set" lists it.
   */
  readonly changed: boolean;
  /** The plan's number for this setting, and whether the patched value meets it. */
  readonly planned?: Planned & { readonly met: boolean };
}

/**
 * What the workload is to the shutdown: an edge proxy, a serving app, or a run-to-completion pod.
 */
type Role = 'gateway' | 'app' | 'job';

/** The part of a workload's explanation its mutator writes. */
export interface ExplanationBody {
  readonly role: Role;
  readonly summary: string;
  readonly inputs: readonly ModelInput[];
  readonly derived: readonly ModelOutput[];
  readonly settings: readonly SettingRow[];
  readonly timelines: {
    readonly asWritten: Timeline;
    readonly patched: Timeline;
    /** The patched pod when its node goes away with less than its grace (./nodeShutdown.ts). */
    readonly nodeShutdown?: Timeline;
  };
}

/** What a mutator's explanation reads besides its plan: the pod as written and as patched. */
export interface ExplainContext {
  readonly before: PodTemplate;
  readonly after: PodTemplate;
  readonly spec: Spec;
}
