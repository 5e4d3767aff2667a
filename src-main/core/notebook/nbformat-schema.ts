import { z } from 'zod';

// nbformat 4.x, written from the format's specification. Strict where the spec forbids extra fields
// (the notebook root, every known cell and output type); open where the spec leaves room (metadata,
// and cells/outputs of types a later 4.x minor may add, which readers are asked to tolerate).

/** Text stored either whole or as a list of lines (Jupyter writes lists to keep diffs line-based). */
export const MultilineString = z.union([z.string(), z.array(z.string())], {
  error: 'expected a string or a list of strings',
});

/** JSON MIME types (application/json, application/vnd.foo+json) may hold any JSON value; others hold text. */
export function isJsonMime(mime: string): boolean {
  return /^application\/(.*\+)?json$/.test(mime);
}

export const MimeBundle = z.record(z.string(), z.unknown()).superRefine((bundle, ctx) => {
  for (const [mime, value] of Object.entries(bundle)) {
    if (isJsonMime(mime)) continue;
    const isText = typeof value === 'string' || (Array.isArray(value) && value.every((line) => typeof line === 'string'));
    if (!isText) {
      ctx.addIssue({
        code: 'custom',
        path: [mime],
        message: 'expected a string or a list of strings (only JSON MIME types may hold other values)',
      });
    }
  }
});

const OutputMetadata = z.record(z.string(), z.unknown());

// A reader of a newer 4.x minor builds its objects with `z.object` instead (unknown fields dropped, not
// refused), as nbformat's own validator relaxes "additionalProperties" for minors newer than it knows:
// later minors may add fields.
type ObjectKind = typeof z.strictObject;

function outputSchemas(object: ObjectKind) {
  return {
    stream: object({
      output_type: z.literal('stream'),
      name: z.string(),
      text: MultilineString,
    }),
    displayData: object({
      output_type: z.literal('display_data'),
      data: MimeBundle,
      metadata: OutputMetadata,
    }),
    executeResult: object({
      output_type: z.literal('execute_result'),
      execution_count: ExecutionCount,
      data: MimeBundle,
      metadata: OutputMetadata,
    }),
    error: object({
      output_type: z.literal('error'),
      ename: z.string(),
      evalue: z.string(),
      traceback: z.array(z.string()),
    }),
  };
}

const ExecutionCount = z.number().int().min(0).nullable();
const strictOutputs = outputSchemas(z.strictObject);
export const StreamOutputV4 = strictOutputs.stream;
export const DisplayDataOutputV4 = strictOutputs.displayData;
export const ExecuteResultOutputV4 = strictOutputs.executeResult;
export const ErrorOutputV4 = strictOutputs.error;

export const KNOWN_OUTPUT_TYPES = ['stream', 'display_data', 'execute_result', 'error'] as const;

/** An output type from a later minor version: allowed by the spec, shown to the user as dropped. */
export const UnrecognizedOutputV4 = z.looseObject({
  output_type: z.string().refine((t) => !(KNOWN_OUTPUT_TYPES as readonly string[]).includes(t), {
    message: "a known output type must have that type's fields",
    // Fatal, so that zod reports the known type's own problems rather than this branch's.
    abort: true,
  }),
});

// Dispatch on the type tag: each output is checked against its own type only (fast on big
// notebooks, and the errors are that type's).
function knownOutput(outputs: ReturnType<typeof outputSchemas>) {
  return z.discriminatedUnion('output_type', [outputs.stream, outputs.displayData, outputs.executeResult, outputs.error]);
}
const KnownOutput = knownOutput(strictOutputs);

export const OutputV4 = z.union([KnownOutput, UnrecognizedOutputV4]);
const OutputV4Newer = z.union([knownOutput(outputSchemas(z.object)), UnrecognizedOutputV4]);

// Cell metadata: every key is allowed; the ones the spec names must have the spec's types.
const CellName = z.string().regex(/^.+$/, 'a cell name is a non-empty single line');
const CellTags = z
  .array(z.string().regex(/^[^,]+$/, 'tags are non-empty and contain no commas'))
  .refine((tags) => new Set(tags).size === tags.length, 'tags must be unique');
const JupyterCellMetadata = z.looseObject({
  source_hidden: z.boolean().optional(),
  outputs_hidden: z.boolean().optional(),
});
const BaseCellMetadata = z.looseObject({
  name: CellName.optional(),
  tags: CellTags.optional(),
  jupyter: JupyterCellMetadata.optional(),
});
const CodeCellMetadata = BaseCellMetadata.extend({
  // Kernel message timestamps, ISO 8601 strings keyed by channel and message.
  execution: z.record(z.string(), z.string()).optional(),
  collapsed: z.boolean().optional(),
  scrolled: z.union([z.boolean(), z.literal('auto')], { error: 'expected true, false or "auto"' }).optional(),
});
const RawCellMetadata = BaseCellMetadata.extend({
  format: z.string().optional(),
});

/** Cell ids arrived in 4.5: 1–64 letters, digits, '-' or '_'. */
export const CellId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-zA-Z0-9_-]+$/, 'a cell id is 1–64 letters, digits, "-" or "_"');

/** Attachments (inline images of markdown and raw cells), keyed by file name. */
export const Attachments = z.record(z.string(), MimeBundle);

export const KNOWN_CELL_TYPES: readonly string[] = ['markdown', 'code', 'raw'];

/** A cell type from a later minor version; readers are asked to tolerate these, the schema does not. */
const UnrecognizedCellV4 = z.looseObject({
  cell_type: z.string().refine((t) => !KNOWN_CELL_TYPES.includes(t), {
    message: "a known cell type must have that type's fields",
    // Fatal, so that zod reports the known type's own problems rather than this branch's.
    abort: true,
  }),
  metadata: BaseCellMetadata,
});

function cellSchemas<IdShape extends z.core.$ZodLooseShape, Output extends z.ZodType>(
  idShape: IdShape,
  output: Output,
  object: ObjectKind = z.strictObject,
) {
  const markdown = object({
    ...idShape,
    cell_type: z.literal('markdown'),
    metadata: BaseCellMetadata,
    attachments: Attachments.optional(),
    source: MultilineString,
  });
  const code = object({
    ...idShape,
    cell_type: z.literal('code'),
    metadata: CodeCellMetadata,
    source: MultilineString,
    outputs: z.array(output),
    execution_count: ExecutionCount,
  });
  const raw = object({
    ...idShape,
    cell_type: z.literal('raw'),
    metadata: RawCellMetadata,
    attachments: Attachments.optional(),
    source: MultilineString,
  });
  return { markdown, code, raw };
}

// The spec's own rules: 4.5 requires ids, 4.0–4.4 have none, only the known cell and output types.
const strict45 = cellSchemas({ id: CellId }, KnownOutput);
const strictBefore45 = cellSchemas({}, KnownOutput);
// What the app reads: ids optional in every minor (Jupyter's reader adds missing ones), and types
// from later minors let through so that import can name them in a warning and leave them out.
const reader = cellSchemas({ id: CellId.optional() }, OutputV4);
const newerReader = cellSchemas({ id: CellId.optional() }, OutputV4Newer, z.object);

const KernelSpec = z.looseObject({
  name: z.string(),
  display_name: z.string(),
});

const LanguageInfo = z.looseObject({
  name: z.string(),
  codemirror_mode: z.union([z.string(), z.record(z.string(), z.unknown())], { error: 'expected a mode name or a mode object' }).optional(),
  file_extension: z.string().optional(),
  mimetype: z.string().optional(),
  pygments_lexer: z.string().optional(),
});

export const NotebookMetadataV4 = z.looseObject({
  kernelspec: KernelSpec.optional(),
  language_info: LanguageInfo.optional(),
  orig_nbformat: z.number().int().min(1).optional(),
  title: z.string().optional(),
  authors: z.array(z.looseObject({ name: z.string().optional() })).optional(),
});

/** nbformat 4.5 exactly as specified: what the app writes. */
export const NotebookV4_5 = z.strictObject({
  metadata: NotebookMetadataV4,
  nbformat: z.literal(4),
  nbformat_minor: z.number().int().min(5),
  cells: z.array(z.discriminatedUnion('cell_type', [strict45.markdown, strict45.code, strict45.raw])),
});

/** nbformat 4.0–4.4 exactly as specified (no cell ids). */
export const NotebookV4_0 = z.strictObject({
  metadata: NotebookMetadataV4,
  nbformat: z.literal(4),
  nbformat_minor: z.number().int().min(0),
  cells: z.array(z.discriminatedUnion('cell_type', [strictBefore45.markdown, strictBefore45.code, strictBefore45.raw])),
});

/** The spec's schema for a notebook of this minor version. */
export function strictNotebookSchema(minor: number): typeof NotebookV4_5 | typeof NotebookV4_0 {
  return minor >= 5 ? NotebookV4_5 : NotebookV4_0;
}

/** Any 4.x notebook up to the newest minor the app knows, as tolerantly as Jupyter reads one (see `reader` above). */
export const NotebookV4Reader = z.strictObject({
  metadata: NotebookMetadataV4,
  nbformat: z.literal(4),
  nbformat_minor: z.number().int().min(0),
  cells: z.array(z.union([z.discriminatedUnion('cell_type', [reader.markdown, reader.code, reader.raw]), UnrecognizedCellV4])),
});

/**
 * A notebook of a minor newer than the app knows: the same rules, but fields the known minors do not
 * name are dropped instead of refused (nbformat reads such a file the same way).
 */
export const NotebookV4NewerReader = z.object({
  metadata: NotebookMetadataV4,
  nbformat: z.literal(4),
  nbformat_minor: z.number().int().min(0),
  cells: z.array(
    z.union([z.discriminatedUnion('cell_type', [newerReader.markdown, newerReader.code, newerReader.raw]), UnrecognizedCellV4]),
  ),
});

export type MultilineString = z.infer<typeof MultilineString>;
export type OutputV4 = z.infer<typeof OutputV4>;
export type StreamOutputV4 = z.infer<typeof StreamOutputV4>;
export type DisplayDataOutputV4 = z.infer<typeof DisplayDataOutputV4>;
export type ExecuteResultOutputV4 = z.infer<typeof ExecuteResultOutputV4>;
export type ErrorOutputV4 = z.infer<typeof ErrorOutputV4>;
export type KnownOutputV4 = z.infer<typeof KnownOutput>;
export type MarkdownCellV4 = z.infer<typeof strict45.markdown>;
export type CodeCellV4 = z.infer<typeof strict45.code>;
export type RawCellV4 = z.infer<typeof strict45.raw>;
export type NotebookMetadataV4 = z.infer<typeof NotebookMetadataV4>;
export type AttachmentsV4 = z.infer<typeof Attachments>;
/**
 * A notebook as the app writes it: only the three known cell types; 4.5 with cell ids, or the minor
 * an imported notebook had (4.0–4.4 cells have no id).
 */
export type NotebookV4 = Omit<z.infer<typeof NotebookV4_5>, 'cells'> & {
  cells: Array<IdOptional<MarkdownCellV4 | CodeCellV4 | RawCellV4>>;
};
// Distributes over unions, so each cell type keeps its own fields.
type IdOptional<T> = T extends unknown ? Omit<T, 'id'> & { id?: string } : never;
/** A notebook as read: ids may be missing, unknown cell and output types may appear. */
export type NotebookV4Read = z.infer<typeof NotebookV4Reader>;
export type ReadCell = NotebookV4Read['cells'][number];
export type ReadMarkdownCell = z.infer<typeof reader.markdown>;
export type ReadCodeCell = z.infer<typeof reader.code>;
export type ReadRawCell = z.infer<typeof reader.raw>;

/** Narrows an output to one known type (unrecognized outputs also carry a string tag). */
export function isOutputOfType<T extends KnownOutputV4['output_type']>(
  output: OutputV4,
  type: T,
): output is Extract<KnownOutputV4, { output_type: T }> {
  return output.output_type === type;
}

/** Narrows a cell read by NotebookV4Reader to one known type (unrecognized cells also carry a string tag). */
export function isCellOfType<T extends 'markdown' | 'code' | 'raw'>(
  cell: ReadCell,
  type: T,
): cell is Extract<ReadMarkdownCell | ReadCodeCell | ReadRawCell, { cell_type: T }> {
  return cell.cell_type === type;
}
