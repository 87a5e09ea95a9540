// Lint for the whole repo (`npm run lint`). What ships is also linted by n8n's own CLI in strict mode
// (`npm run lint:n8n`, nodes/build/n8n-cli.mjs), which needs its default config verbatim in its own folder:
// - what ships in the n8n package (nodes/, credentials/, src/ except src/runtime/) gets the rules n8n's
//   verification applies: @n8n/eslint-plugin-community-nodes `recommended` plus eslint-plugin-n8n-nodes-base's
//   nodes / credentials rule sets, configured as @n8n/scan-community-package configures them;
// - package.json gets the package rules (community-nodes' package checks and n8n-nodes-base `community`);
// - every .ts file gets ordinary typescript-eslint rules (sandbox/, action/, test/, bench/ only those).
import tseslint from 'typescript-eslint';
import tsParser from '@typescript-eslint/parser';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const SHIPPED = ['nodes/**/*.ts', 'credentials/**/*.ts', 'src/**/*.ts'];
const PLAIN_NODE = ['src/runtime/**'];

export default tseslint.config(
	{ ignores: ['dist/**', 'action/dist/**', '**/node_modules/**', 'coverage/**', 'test/e2e/n8n/host/**', '.n8n-package/**'] },

	// Ordinary TypeScript everywhere (the shipped code gets the n8n rules on top).
	{
		files: ['**/*.ts', '**/*.mts', '**/*.cts'],
		extends: [...tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-non-null-assertion': 'off',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
		},
	},

	// The n8n rules on what ships.
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: SHIPPED,
		ignores: PLAIN_NODE,
		languageOptions: { parser: tsParser },
	},
	{
		files: SHIPPED,
		ignores: PLAIN_NODE,
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { 'no-console': 'error' },
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},

	// package.json: the package rules, parsed as the scanner parses it.
	{
		files: ['package.json'],
		languageOptions: { parser: tsParser },
		plugins: { '@n8n/community-nodes': n8nCommunityNodesPlugin, 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...Object.fromEntries(Object.entries(n8nCommunityNodesPlugin.configs.recommended.rules)),
			...n8nNodesBase.configs.community.rules,
		},
	},
);
