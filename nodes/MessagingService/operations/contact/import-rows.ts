/**
 * Contact → Import, per row: how rows the service refused are reported. Refused rows are never only a
 * line in a green summary: they go to the error output (or the main output as error items) when the node
 * continues on error, and otherwise the node fails naming them.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { ApiError } from '../../../../src/index.ts';
import { errorItem, nodeError, NodeSideError } from '../../helpers/errors.ts';

export const failedRowsOption: INodeProperties = {
	displayName: 'Refused Rows',
	name: 'failedRows',
	type: 'options',
	options: [
		{
			name: 'Report as Failed Items',
			value: 'items',
			description: 'Each refused row is a failed item: on the error output when the node uses it; otherwise the node fails',
		},
		{
			name: 'Fail the Node',
			value: 'failNode',
			description: 'Any refused row fails the node, whatever its "On Error" setting',
		},
	],
	default: 'items',
	description: 'What happens to rows the service refused (the others are imported either way)',
};

/** One row a job refused: its input item, or the job's items when the service's error names no row of the job. */
export interface RefusedRow {
	itemIndex?: number;
	jobItems?: number[];
	jobId: string;
	chunk: number;
	error: ApiError;
}

function rowLabel(row: RefusedRow): string {
	return `item ${row.itemIndex ?? '?'} ${row.error.code}${row.error.param ? ` (${row.error.param})` : ''}`;
}

/**
 * Error items for the refused rows, or the node's error when they must stop it. A row error that names
 * no row of its job is paired with all of the job's input items: it belongs to none of them in particular.
 */
export function reportFailedRows(ctx: IExecuteFunctions, rows: RefusedRow[], contactCount: number): INodeExecutionData[] {
	if (rows.length === 0) return [];
	const failNode = ctx.getNodeParameter('options.failedRows', 0, 'items') === 'failNode';
	if (!failNode && ctx.continueOnFail()) {
		return rows.map((row) => {
			if (row.itemIndex !== undefined) return errorItem(row.error, row.itemIndex, { outcome: 'failed', jobId: row.jobId, chunk: row.chunk }, `row of job ${row.jobId}`);
			const jobItems = row.jobItems ?? [];
			const item = errorItem(row.error, jobItems[0] ?? 0, { outcome: 'failed', jobId: row.jobId, chunk: row.chunk }, `job ${row.jobId}, naming no row`);
			return { ...item, pairedItem: jobItems.map((i) => ({ item: i })) };
		});
	}
	const shown = rows.slice(0, 5).map(rowLabel).join('; ');
	const more = rows.length > 5 ? `; and ${rows.length - 5} more` : '';
	const error = new NodeSideError(
		'rows_refused',
		`${rows.length} of ${contactCount} contacts were refused: ${shown}${more}`,
		'The other rows were imported. Fix the refused rows and import them again, or set Settings → On Error to "Continue (using error output)" to route them.',
	);
	throw nodeError(ctx.getNode(), error, rows[0]!.itemIndex ?? 0);
}
