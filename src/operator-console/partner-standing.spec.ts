import { nearPlan, partnerStatus, planShare, readOffsetCursor, writeOffsetCursor } from './partner-standing';

describe('partnerStatus', () => {
  it('is disabled when the operator stopped it, whatever its keys; paused without a live key; else active', () => {
    expect(partnerStatus(true, 3)).toBe('disabled');
    expect(partnerStatus(true, 0)).toBe('disabled');
    expect(partnerStatus(false, 0)).toBe('paused');
    expect(partnerStatus(false, 1)).toBe('active');
  });
});

describe('planShare and nearPlan', () => {
  it('rounds the share of the plan, with no share on an unlimited plan', () => {
    expect(planShare(81, 100)).toBe(81);
    expect(planShare(1, 3)).toBe(33);
    expect(planShare(150, 100)).toBe(150);
    expect(planShare(5, null)).toBeNull();
    expect(planShare(0, 0)).toBe(0);
    expect(planShare(1, 0)).toBe(100);
  });

  it('marks a partner above 80 %, not at it', () => {
    expect(nearPlan(81)).toBe(true);
    expect(nearPlan(80)).toBe(false);
    expect(nearPlan(null)).toBe(false);
  });
});

describe('offset cursors', () => {
  it('reads back what it wrote, and nothing else', () => {
    expect(readOffsetCursor(writeOffsetCursor(50))).toBe(50);
    expect(readOffsetCursor(writeOffsetCursor(0))).toBe(0);
    expect(readOffsetCursor('50')).toBeNull();
    expect(readOffsetCursor(Buffer.from('o-1').toString('base64url'))).toBeNull();
  });
});
