/**
 * Brands make the `isXxx` checks work across two copies of the library in one program (a monorepo
 * with duplicated node_modules), where `instanceof` fails; they are kept on the class prototype
 * (once, not on every instance) and never show in an object's own keys.
 */
import { brand, isBranded } from '../../src/model/brand';
import { Duration } from '../../src/model/duration';
import { ChartSource } from '../../src/model/source';
import { WaitResource } from '../../src/model/wait';

test('an instance of another copy of the library passes the checks, and only a real instance does', () => {
  let other: { Duration: typeof Duration; ChartSource: typeof ChartSource; WaitResource: typeof WaitResource } | undefined;
  jest.isolateModules(() => {
    other = {
      Duration: require('../../src/model/duration').Duration,
      ChartSource: require('../../src/model/source').ChartSource,
      WaitResource: require('../../src/model/wait').WaitResource,
    };
  });
  expect(other!.Duration).not.toBe(Duration);
  const d = other!.Duration.seconds(30);
  expect([d instanceof Duration, Duration.isDuration(d), Duration.isDuration(Duration.minutes(1))]).toEqual([false, true, true]);
  expect(ChartSource.isChartSource(other!.ChartSource.local('/charts/x'))).toBe(true);
  expect(WaitResource.isWaitResource(other!.WaitResource.job())).toBe(true);
  // look-alikes are not
  expect([Duration.isDuration({ ...Duration.seconds(1) }), Duration.isDuration(JSON.parse(JSON.stringify(Duration.seconds(1)))), Duration.isDuration(null)]).toEqual([false, false, false]);
});

test('the brand is on the prototype, not an own key of each instance', () => {
  const d = Duration.seconds(5);
  expect(Object.getOwnPropertySymbols(d)).toEqual([]);
});

test('a plain object is branded itself, never Object.prototype', () => {
  const s = Symbol.for('armada-cdk.test-brand');
  const o = {};
  brand(o, s);
  expect([isBranded(o, s), isBranded({}, s), Object.prototype.hasOwnProperty.call(Object.prototype, s)]).toEqual([true, false, false]);
});
