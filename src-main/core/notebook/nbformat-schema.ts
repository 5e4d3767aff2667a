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

export const StreamOutputV4 = z.strictObject({
  output_type: z.literal('stream'),
  name: z.string(),
  text: MultilineString,
});

export const DisplayDataOutputV4 = z.strictObject({
  output_type: z.literal('display_data'),
  data: MimeBundle,
  metadata: OutputMetadata,
});

const ExecutionCount = z.number().int().min(0).nullable();

export const ExecuteResultOutputV4 = z.strictObject({
  output_type: z.literal('execute_result'),
  execution_count: ExecutionCount,
  data: MimeBundle,
  metadata: OutputMetadata,
});

export const ErrorOutputV4 = z.strictObject({
  output_type: z.literal('error'),
  ename: z.string(),
  evalue: z.string(),
  traceback: z.array(z.string()),
});

export const KNOWN_OUTPUT_TYPES = ['stream', 'display_data', 'execute_result', 'error'] as const;

/** An output type from a later minor version: allowed by the spec, shown to the user as dropped. */
export const UnrecognizedOutputV4 = z.looseObject({
  output_type: z.string().refine((t) => !(KNOWN_OUTPUT_TYPES as readonly string[]).includes(t), {
    message: 'a known output type must have that type\'s fields',
    // Fatal, so that zod reports the known type's own problems rather than this branch's.
    abort: true,
  }),
});

export const OutputV4 = z.union([StreamOutputV4, DisplayDataOutputV4, ExecuteResultOutputV4, ErrorOutputV4, UnrecognizedOutputV4]);

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

function cellSchemas<Id extends z.ZodType>(id: Id) {
  const markdown = z.strictObject({
    id,
    cell_type: z.literal('markdown'),
    metadata: BaseCellMetadata,
    attachments: Attachments.optional(),
    source: MultilineString,
  });
  const code = z.strictObject({
    id,
    cell_type: z.literal('code'),
    metadata: CodeCellMetadata,
    source: MultilineString,
    outputs: z.array(OutputV4),
    execution_count: ExecutionCount,
  });
  const raw = z.strictObject({
    id,
    cell_type: z.literal('raw'),
    metadata: RawCellMetadata,
    attachments: Attachments.optional(),
    source: MultilineString,
  });
  const unrecognized = z.looseObject({
    cell_type: z.string().refine((t) => !KNOWN_CELL_TYPES.includes(t), {
      message: 'a known cell type must have that type\'s fields',
      abort: true,
    }),
    metadata: BaseCellMetadata,
  });
  return { markdown, code, raw, cell: z.union([markdown, code, raw, unrecognized]) };
}

// 4.5 requires ids. For 4.0–4.4 they are optional: nbformat's own reader adds them on upgrade, and
// many tools already write them into older minors.
const cells45 = cellSchemas(CellId);
const cellsBefore45 = cellSchemas(CellId.optional());

const KernelSpec = z.looseObject({
  name: z.string(),
  display_name: z.string(),
});

const LanguageInfo = z.looseObject({
  name: z.string(),
  codemirror_mode: z
    .union([z.string(), z.record(z.string(), z.unknown())], { error: 'expected a mode name or a mode object' })
    .optional(),
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

/** The current format, 4.5: what the app writes. */
export const NotebookV4_5 = z.strictObject({
  metadata: NotebookMetadataV4,
  nbformat: z.literal(4),
  nbformat_minor: z.number().int().min(5),
  cells: z.array(cells45.cell),
});

/** Any 4.x notebook the app reads (ids optional before 4.5). */
export const NotebookV4Any = z.strictObject({
  metadata: NotebookMetadataV4,
  nbformat: z.literal(4),
  nbformat_minor: z.number().int().min(0),
  cells: z.array(cellsBefore45.cell),
});

export type MultilineString = z.infer<typeof MultilineString>;
export type OutputV4 = z.infer<typeof OutputV4>;
export type StreamOutputV4 = z.infer<typeof StreamOutputV4>;
export type DisplayDataOutputV4 = z.infer<typeof DisplayDataOutputV4>;
export type ExecuteResultOutputV4 = z.infer<typeof ExecuteResultOutputV4>;
export type ErrorOutputV4 = z.infer<typeof ErrorOutputV4>;
export type KnownOutputV4 = StreamOutputV4 | DisplayDataOutputV4 | ExecuteResultOutputV4 | ErrorOutputV4;
export type MarkdownCellV4 = z.infer<typeof cells45.markdown>;
export type CodeCellV4 = z.infer<typeof cells45.code>;
export type RawCellV4 = z.infer<typeof cells45.raw>;
export type NotebookMetadataV4 = z.infer<typeof NotebookMetadataV4>;
export type AttachmentsV4 = z.infer<typeof Attachments>;
/** A notebook as the app writes it: 4.5, only the three known cell types. */
export type NotebookV4 = Omit<z.infer<typeof NotebookV4_5>, 'cells'> & {
  cells: Array<MarkdownCellV4 | CodeCellV4 | RawCellV4>;
};
/** A notebook as read: ids may be missing, unknown cell types may appear. */
export type NotebookV4Any = z.infer<typeof NotebookV4Any>;
