import { z } from 'zod';
import { FaultSpec } from '../faults.js';
import { FleetCardQuery, IssueFleetCard, SetFleetCardStatus, TopUpFleetCard } from '../resources/fleet-cards.js';
import { GiftCardWalletQuery, IssueGiftCardWallet, LoadGiftCardWallet } from '../resources/gift-cards.js';
import { CardDetails, Mandate, WalletApproval } from '../resources/mandates.js';
import { AddPayee, ApprovePayee, Payee, PayeeListQuery, SetPayeeCaps } from '../resources/payees.js';
import { QueuePayoutOutcomes } from '../resources/payouts.js';
import { PayrollApproval, PayrollLine, PayrollRun } from '../resources/payroll.js';
import { RequestIdParams, RequestLogEntry, RequestLogPage, RequestLogQuery } from './requests.js';
import { AdvanceClock, ClockState, Compacted, Health, KeyList, Metrics, Pruned } from './emulator.js';
import { AppliedPreset, Fault, FaultIdParams, FaultList, FaultLog, FaultLogQuery, FaultPresetList, FaultRemoved, FaultsCleared, PresetParams } from './faults.js';
import {
  CardLedger,
  ControlUser,
  FleetCard,
  FleetCardList,
  GiftCardWallet,
  GiftCardWalletList,
  IdParams,
  OtpInbox,
  OtpPhoneParams,
  PayeeList,
  PayoutProvider,
  PhoneParams,
  UserList,
  UserTopUp,
  WalletBalance,
  WalletQuery,
  WalletTopUp,
  WalletView,
} from './dashboard.js';
import { Delivery, DeliveryList, DeliveryListQuery, EndpointSecret, EventDeliveries, EventList, EventsQuery, NextDeliveryAdvance, NoFields, TriggerEventBody, TriggeredEvent } from './webhooks.js';
import {
  FixturesJsonSchema,
  NamedSnapshotRestored,
  SavedSnapshot,
  SaveSnapshot,
  SnapshotList,
  SnapshotNameParams,
  Stopping,
  WorldReset,
  WorldRestored,
  WorldSnapshot,
} from './world.js';
import { CoverageQuery, CoverageReport } from './coverage.js';
import type { ControlRouteName } from './routes.js';
import type { InputIn, ResponseIn, RouteSchemas } from '../route-schemas.js';

// The zod schemas of every control route in routes.ts, under the same names: what the control
// router validates (body, query), the path parameters (the handlers check them: a snapshot name,
// a phone), and the shape of `data` in the success envelope. The emulator's handlers are typed
// by them (emulator/control/route.ts), the client infers its return types from them (type-only
// imports: the CLI loads no zod for this), and GET /_emulator/openapi.yaml is generated from them.

/** What POST /_emulator/payroll-runs/:id/approve answers: the run as executed, line by line. */
const ApprovedPayrollRun = z.object({ run: PayrollRun, payments: z.array(PayrollLine) });

export const CONTROL_SCHEMAS = {
  health: { response: Health },
  keys: { response: KeyList },
  compactStore: { response: Compacted },
  pruneStore: { response: Pruned },
  metrics: { response: Metrics },
  resetMetrics: { response: Metrics },
  fixturesSchema: { response: FixturesJsonSchema },
  stop: { response: Stopping },
  clock: { response: ClockState },
  advanceClock: { body: AdvanceClock, response: ClockState },
  advanceToNextDelivery: { body: NoFields, response: NextDeliveryAdvance.extend({ clock: ClockState }) },
  reset: { response: WorldReset },
  snapshot: { response: WorldSnapshot },
  restoreSnapshot: { body: WorldSnapshot, response: WorldRestored },
  listSnapshots: { response: SnapshotList },
  saveSnapshot: { body: SaveSnapshot, response: SavedSnapshot },
  restoreNamedSnapshot: { params: SnapshotNameParams, response: NamedSnapshotRestored },

  listFaults: { response: FaultList },
  addFault: { body: FaultSpec, response: Fault },
  clearFaults: { response: FaultsCleared },
  removeFault: { params: FaultIdParams, response: FaultRemoved },
  faultLog: { query: FaultLogQuery, response: FaultLog },
  coverage: { query: CoverageQuery, response: CoverageReport },
  resetCoverage: { response: CoverageReport },
  listRequests: { query: RequestLogQuery, response: RequestLogPage },
  request: { params: RequestIdParams, response: RequestLogEntry },
  faultPresets: { response: FaultPresetList },
  applyFaultPreset: { params: PresetParams, response: AppliedPreset },

  endpointDeliveries: { params: IdParams, query: DeliveryListQuery, response: DeliveryList },
  endpointSecret: { params: IdParams, response: EndpointSecret },
  delivery: { params: IdParams, response: Delivery },
  redeliver: { params: IdParams, body: NoFields, response: Delivery },
  listEvents: { query: EventsQuery, response: EventList },
  eventDeliveries: { params: IdParams, response: EventDeliveries },
  triggerEvent: { body: TriggerEventBody, response: TriggeredEvent },

  wallets: { query: WalletQuery, response: WalletView },
  topUpWallet: { body: WalletTopUp, response: WalletBalance },
  listPayees: { query: PayeeListQuery, response: PayeeList },
  addPayee: { body: AddPayee, response: Payee },
  approvePayee: { params: IdParams, body: ApprovePayee, response: Payee },
  revokePayee: { params: IdParams, response: Payee },
  setPayeeCaps: { params: IdParams, body: SetPayeeCaps, response: Payee },
  payoutProvider: { response: PayoutProvider },
  queuePayoutOutcomes: { body: QueuePayoutOutcomes, response: PayoutProvider },
  listGiftCardWallets: { query: GiftCardWalletQuery, response: GiftCardWalletList },
  giftCardWalletTransactions: { params: IdParams, response: CardLedger },
  issueGiftCardWallet: { body: IssueGiftCardWallet, response: GiftCardWallet },
  loadGiftCardWallet: { params: IdParams, body: LoadGiftCardWallet, response: GiftCardWallet },
  listFleetCards: { query: FleetCardQuery, response: FleetCardList },
  fleetCardTransactions: { params: IdParams, response: CardLedger },
  issueFleetCard: { body: IssueFleetCard, response: FleetCard },
  setFleetCardStatus: { params: IdParams, body: SetFleetCardStatus, response: FleetCard },
  topUpFleetCard: { params: IdParams, body: TopUpFleetCard, response: FleetCard },
  listUsers: { response: UserList },
  user: { params: PhoneParams, response: ControlUser },
  topUpUser: { params: PhoneParams, body: UserTopUp, response: ControlUser },
  approveCardMandate: { params: IdParams, body: CardDetails, response: Mandate },
  approveWalletMandate: { params: IdParams, body: WalletApproval, response: Mandate },
  approvePayrollRun: { params: IdParams, body: PayrollApproval, response: ApprovedPayrollRun },
  otpInbox: { params: OtpPhoneParams, response: OtpInbox },
} as const satisfies Record<ControlRouteName, RouteSchemas>;

export type ControlResponse<N extends ControlRouteName> = ResponseIn<(typeof CONTROL_SCHEMAS)[N]>;
export type ControlBody<N extends ControlRouteName> = InputIn<(typeof CONTROL_SCHEMAS)[N], 'body'>;
export type ControlQuery<N extends ControlRouteName> = InputIn<(typeof CONTROL_SCHEMAS)[N], 'query'>;
