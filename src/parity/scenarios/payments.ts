import type { Scenario } from '../types.js';
import { paidLink as paid } from './steps.js';

// Reading payments: one by id, the list (newest first, filtered by status), the summary, and
// the `before` / `next_before` cursor across two pages of payments this run made.

const paidLink = (scenario: string, n: number) => paid({ link: `link-${n}`, pay: `pay-${n}`, key: `${scenario}-${n}`, amount: 100 * n, title: `Parity page ${n}` });

export const payments: Scenario = {
  name: 'payments',
  description: 'List (newest first, by status), summary with and without since, a missing payment',
  steps: [
    ...paidLink('payments', 1),
    { name: 'get', method: 'GET', path: '/v1/api/payments/${pay-1:id}' },
    {
      name: 'list',
      method: 'GET',
      path: '/v1/api/payments',
      lists: ['$.data.payments'],
      rules: [
        { name: 'newest-first', kind: 'sorted', path: 'payments[*].created_at', order: 'desc' },
        { name: 'default-limit-50', kind: 'max-length', path: 'payments', max: 50 },
        { name: 'newest-is-ours', kind: 'equal', a: '${this:payments[0].id}', b: '${pay-1:id}' },
      ],
    },
    {
      name: 'list-completed',
      method: 'GET',
      path: '/v1/api/payments',
      query: { status: 'completed', limit: '10' },
      lists: ['$.data.payments'],
      rules: [{ name: 'only-completed', kind: 'all-equal', path: 'payments[*].status', value: 'completed' }],
    },
    { name: 'list-bad-status', method: 'GET', path: '/v1/api/payments', query: { status: 'refunded' } },
    { name: 'list-limit-over-100', method: 'GET', path: '/v1/api/payments', query: { limit: '101' } },
    { name: 'list-bad-before', method: 'GET', path: '/v1/api/payments', query: { before: 'yesterday' } },
    { name: 'summary', method: 'GET', path: '/v1/api/payments/summary', lists: ['$.data.summary'] },
    { name: 'summary-since', method: 'GET', path: '/v1/api/payments/summary', query: { since: '2020-01-01T00:00:00Z' }, lists: ['$.data.summary'] },
    { name: 'absent', method: 'GET', path: '/v1/api/payments/pay_parity0does0not0exist0' },
  ],
};

export const pagination: Scenario = {
  name: 'pagination',
  description: 'Three payments paged two at a time: next_before is the last row, before returns only older rows',
  steps: [
    ...paidLink('pagination', 1),
    ...paidLink('pagination', 2),
    ...paidLink('pagination', 3),
    {
      name: 'page-1',
      method: 'GET',
      path: '/v1/api/payments',
      query: { limit: '2' },
      lists: ['$.data.payments'],
      rules: [
        { name: 'at-most-limit', kind: 'max-length', path: 'payments', max: 2 },
        { name: 'newest-first', kind: 'sorted', path: 'payments[*].created_at', order: 'desc' },
        { name: 'first-is-newest-payment', kind: 'equal', a: '${this:payments[0].id}', b: '${pay-3:id}' },
        { name: 'second-is-next-payment', kind: 'equal', a: '${this:payments[1].id}', b: '${pay-2:id}' },
        { name: 'next-before-is-last-row', kind: 'equal', a: '${this:next_before}', b: '${this:payments[-1].created_at}' },
      ],
    },
    {
      name: 'page-2',
      method: 'GET',
      path: '/v1/api/payments',
      query: { limit: '2', before: '${page-1:next_before}' },
      lists: ['$.data.payments'],
      rules: [
        { name: 'older-than-cursor', kind: 'all-before', path: 'payments[*].created_at', than: '${page-1:next_before}' },
        { name: 'continues-with-oldest', kind: 'equal', a: '${this:payments[0].id}', b: '${pay-1:id}' },
        { name: 'no-overlap', kind: 'excludes', path: 'payments[*].id', value: '${pay-2:id}' },
        { name: 'newest-first', kind: 'sorted', path: 'payments[*].created_at', order: 'desc' },
      ],
    },
  ],
};
