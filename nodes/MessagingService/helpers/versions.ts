/**
 * The node's versions. n8n saves only parameters that differ from their default, so a default that
 * changes must live in a parameter shown for the new version only (`@version` in displayOptions is
 * evaluated against the saved node's typeVersion): a workflow saved with version 1 then runs unchanged.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

export const NODE_VERSIONS = [1, 2];
export const DEFAULT_NODE_VERSION = 2;

/** displayOptions.show entries for parameters of one version. */
export const onlyV1 = { '@version': [1] };
export const fromV2 = { '@version': [{ _cnd: { gte: 2 } }] };

export function nodeVersion(ctx: Pick<IExecuteFunctions, 'getNode'>): number {
	return ctx.getNode().typeVersion;
}
