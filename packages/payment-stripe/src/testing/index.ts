export { startFakeStripe, type FakePrice, type FakeStripe, type FakeSubscription, type RecordedRequest } from './fake-stripe.js';
