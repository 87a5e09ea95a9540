/**
 * n8n's deduplication store for n8n-core's engine, in memory. n8n-core ships the service
 * (DataDeduplicationService: what `this.helpers.checkProcessedAndRecord` calls) but not its database
 * backend, which lives in the n8n app (n8n/dist/deduplication/deduplication-helper.js). This is a port
 * of that backend's `entries` mode, line for line in what it stores: one record per workflow and
 * context (`n:<node id>` for scope node), values hashed with md5/base64, new ones appended, the oldest
 * cut beyond maxEntries, removeProcessed by linear search. Each call reads and writes the record as
 * JSON text, as the database column is. Only the real n8n proves the real store (test/e2e/n8n).
 */
import { createHash } from 'node:crypto';
import { DataDeduplicationService } from 'n8n-core';
import type { DeduplicationItemTypes, DeduplicationScope, ICheckProcessedContextData, ICheckProcessedOptions, IDataDeduplicator, IDeduplicationOutput } from 'n8n-workflow';

function contextOf(scope: DeduplicationScope, data: ICheckProcessedContextData): string {
	if (scope === 'node') {
		if (!data.node) throw new Error("No node information has been provided and so cannot use scope 'node'");
		return `n:${data.node.id}`;
	}
	return '';
}

const hash = (value: DeduplicationItemTypes) => createHash('md5').update(value.toString()).digest('base64');

export class MemoryDeduplicator implements IDataDeduplicator {
	/** workflowId + context → the record's JSON text. */
	readonly records = new Map<string, string>();
	/** When false every call throws, as n8n-core does when no backend was set up. */
	enabled = true;
	/** When true removeProcessed throws: the rows stay pending, as when n8n dies before recording them. */
	failRemoves = false;
	/** A removeProcessed call holding a value this picks fails as `failRemoves` does (n8n dying at that record). */
	failRemovesOf: ((value: string) => boolean) | undefined;
	/** The most markers one record held after any write. */
	peakEntries = 0;
	calls = 0;

	private slot(scope: DeduplicationScope, data: ICheckProcessedContextData): string {
		if (!this.enabled) throw new Error('Manager needs to initialized before use. Make sure to call init()');
		this.calls += 1;
		if (!data.workflow.id) throw new Error('workflow id required');
		return `${data.workflow.id}\u0000${contextOf(scope, data)}`;
	}

	private read(slot: string): { mode: string; data: string[] } | undefined {
		const text = this.records.get(slot);
		return text === undefined ? undefined : (JSON.parse(text) as { mode: string; data: string[] });
	}

	private write(slot: string, record: { mode: string; data: string[] }): void {
		this.peakEntries = Math.max(this.peakEntries, record.data.length);
		this.records.set(slot, JSON.stringify(record));
	}

	async checkProcessedAndRecord(items: DeduplicationItemTypes[], scope: DeduplicationScope, data: ICheckProcessedContextData, options: ICheckProcessedOptions): Promise<IDeduplicationOutput> {
		const slot = this.slot(scope, data);
		if (options.mode !== 'entries') throw new Error('only entries mode is ported');
		const hashed = items.map(hash);
		const record = this.read(slot);
		if (!record) {
			if (options.maxEntries) hashed.splice(0, hashed.length - options.maxEntries);
			this.write(slot, { mode: options.mode, data: hashed });
			return { new: items, processed: [] };
		}
		const seen = new Set(record.data);
		const out: IDeduplicationOutput = { new: [], processed: [] };
		hashed.forEach((value, i) => {
			if (seen.has(value)) out.processed.push(items[i]!);
			else {
				out.new.push(items[i]!);
				record.data.push(value);
			}
		});
		if (options.maxEntries) record.data.splice(0, record.data.length - options.maxEntries);
		this.write(slot, record);
		return out;
	}

	async removeProcessed(items: DeduplicationItemTypes[], scope: DeduplicationScope, data: ICheckProcessedContextData): Promise<void> {
		const slot = this.slot(scope, data);
		if (this.failRemoves || items.some((item) => this.failRemovesOf?.(String(item)))) throw new Error('the database went away');
		const record = this.read(slot);
		if (!record) return;
		for (const value of items.map(hash)) {
			const at = record.data.findIndex((v) => v === value);
			if (at !== -1) record.data.splice(at, 1);
		}
		this.write(slot, record);
	}

	async clearAllProcessedItems(scope: DeduplicationScope, data: ICheckProcessedContextData): Promise<void> {
		this.records.delete(this.slot(scope, data));
	}

	async getProcessedDataCount(scope: DeduplicationScope, data: ICheckProcessedContextData): Promise<number> {
		return this.read(this.slot(scope, data))?.data.length ?? 0;
	}

	/** Markers and bytes held for all nodes. */
	size(): { entries: number; bytes: number } {
		let entries = 0;
		let bytes = 0;
		for (const text of this.records.values()) {
			entries += (JSON.parse(text) as { data: string[] }).data.length;
			bytes += Buffer.byteLength(text);
		}
		return { entries, bytes };
	}

	reset(): void {
		this.records.clear();
		this.enabled = true;
		this.failRemoves = false;
		this.failRemovesOf = undefined;
		this.peakEntries = 0;
		this.calls = 0;
	}
}

let installed: MemoryDeduplicator | undefined;

/** The store behind `this.helpers.checkProcessedAndRecord` (one per Jest worker: n8n-core allows one). */
export function dedupStore(): MemoryDeduplicator {
	if (!installed) {
		installed = new MemoryDeduplicator();
		void DataDeduplicationService.init(installed);
	}
	return installed;
}

/** The store, emptied before each test of the suite that asks for it. */
export function useDedupStore(): MemoryDeduplicator {
	const store = dedupStore();
	beforeEach(() => store.reset());
	return store;
}
