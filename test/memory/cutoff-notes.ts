// The relevance cut-off's measurement set: 30 varied notes in 6 topics and 12 queries, each
// naming one topic (or none). Used by test/memory/cutoff.test.ts and the measurement in
// docs/dashboard.md.
export const NOTES: ReadonlyArray<[topic: string, title: string, content: string]> = [
  ['deploy', 'Deploy window', 'Production deploys happen on Tuesdays after the standup.'],
  [
    'deploy',
    'Rollback steps',
    'To roll back a release, redeploy the previous tag with the deploy script.',
  ],
  [
    'deploy',
    'Release checklist',
    'Before a release: run the smoke tests, tag the commit, announce in #ops.',
  ],
  [
    'deploy',
    'Canary rollout',
    'New builds go to the canary pool first and are promoted after an hour without errors.',
  ],
  ['deploy', 'Deploy freeze', 'No production deploys during the last week of December.'],
  [
    'db',
    'Staging database',
    'Staging runs PostgreSQL 16 on a small VM; migrations are applied by the CI job.',
  ],
  [
    'db',
    'Backups',
    'Database backups are copied nightly to an offsite bucket and kept ninety days.',
  ],
  [
    'db',
    'Slow query log',
    'Queries slower than 500 ms are logged; check the orders table index first.',
  ],
  ['db', 'Connection pool', 'The API keeps at most 20 Postgres connections per instance.'],
  [
    'db',
    'Schema migrations',
    'Every schema change ships as a numbered migration file, never edited after merge.',
  ],
  ['people', 'Lunch allergy', 'Alice is allergic to peanuts, so order lunch without nuts.'],
  ['people', 'On-call rota', 'Bob is on call on weekends; Carol covers public holidays.'],
  ['people', 'Team offsite', 'The team offsite is in Lisbon in May; book flights by March.'],
  ['people', 'New hire', 'Dana joins the frontend team on Monday and needs a laptop and accounts.'],
  ['people', 'Birthday', "Eve's birthday is on the 14th; the team usually gets a cake."],
  [
    'frontend',
    'Design tokens',
    'Colours and spacing come from the design tokens package, not hard-coded values.',
  ],
  [
    'frontend',
    'Accessibility',
    'Every control needs a label and must be reachable with the keyboard.',
  ],
  ['frontend', 'Bundle size', 'The dashboard bundle must stay under 300 KB gzipped.'],
  [
    'frontend',
    'Browser support',
    'We support the last two versions of Chrome, Firefox and Safari.',
  ],
  ['frontend', 'React version', 'The web app uses React 19 with Vite for builds.'],
  ['billing', 'Invoice currency', 'The customer asked for invoices in euros rather than dollars.'],
  ['billing', 'Payment terms', 'Invoices are due within 30 days; reminders go out after 35.'],
  [
    'billing',
    'Tax filing',
    'Quarterly tax filing is due in April; the accountant handles receipts.',
  ],
  ['billing', 'Refund policy', 'Refunds within 14 days are automatic; later ones need a manager.'],
  ['billing', 'Stripe webhooks', 'Payment webhooks from Stripe are retried for three days.'],
  ['office', 'Coffee machine', 'The office coffee machine needs descaling every month.'],
  ['office', 'Wifi password', 'The guest wifi password changes every Monday; ask reception.'],
  [
    'office',
    'Meeting rooms',
    'Book the large meeting room through the calendar, at most two hours.',
  ],
  ['office', 'Printer', 'The printer on the second floor jams on thick paper.'],
  ['office', 'Parking', 'Visitor parking is on level minus one; register the plate at the desk.'],
];

export const QUERIES: ReadonlyArray<[query: string, topic: string]> = [
  ['when do production deploys happen', 'deploy'],
  ['how do I roll back a bad release', 'deploy'],
  ['postgres backups', 'db'],
  ['database migrations', 'db'],
  ['who is on call at the weekend', 'people'],
  ['food allergies for lunch', 'people'],
  ['keyboard accessibility', 'frontend'],
  ['invoice due date', 'billing'],
  ['refunds', 'billing'],
  ['coffee', 'office'],
  ['espresso maker maintenance', 'office'],
  ['feline pet', 'none'],
];
