import { describe, expect, it } from 'vitest';
import { DEFAULT_REVISION, isSessionful, KNOWN_REVISIONS, revisionTraits } from './revisions.ts';

describe('revisionTraits', () => {
  it('knows the five revisions', () => {
    expect(KNOWN_REVISIONS).toEqual(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);
    for (const revision of KNOWN_REVISIONS) expect(revisionTraits(revision)).toMatchObject({ revision, known: true });
  });

  it('gives sessions, the GET stream and resumption only to 2025-03-26 … 2025-11-25', () => {
    expect(KNOWN_REVISIONS.filter((r) => revisionTraits(r).sessions)).toEqual(['2025-03-26', '2025-06-18', '2025-11-25']);
    expect(KNOWN_REVISIONS.filter((r) => revisionTraits(r).getStream)).toEqual(['2025-03-26', '2025-06-18', '2025-11-25']);
    expect(KNOWN_REVISIONS.filter((r) => revisionTraits(r).resumable)).toEqual(['2025-03-26', '2025-06-18', '2025-11-25']);
  });

  it('has the version header from 2025-06-18, the retry field in 2025-11-25, no initialize in 2026-07-28', () => {
    expect(KNOWN_REVISIONS.filter((r) => revisionTraits(r).versionHeader)).toEqual(['2025-06-18', '2025-11-25', '2026-07-28']);
    expect(KNOWN_REVISIONS.filter((r) => revisionTraits(r).retryField)).toEqual(['2025-11-25']);
    expect(KNOWN_REVISIONS.filter((r) => !revisionTraits(r).initialize)).toEqual(['2026-07-28']);
  });

  it('has tasks in the core of 2025-11-25 only, and as an extension from 2026-07-28', () => {
    expect(KNOWN_REVISIONS.map((r) => revisionTraits(r).tasks)).toEqual(['none', 'none', 'none', 'core', 'extension']);
    expect(revisionTraits('2026-01-15').tasks).toBe('core');
    expect(revisionTraits('2027-03-01').tasks).toBe('extension');
  });

  it('places an unknown dated revision by era and flags it', () => {
    expect(revisionTraits('2027-03-01')).toMatchObject({ revision: '2027-03-01', era: 'modern', sessions: false, known: false });
    expect(revisionTraits('2026-01-15')).toMatchObject({ era: 'sessionful', sessions: true, retryField: true, known: false });
    expect(revisionTraits('2024-01-01')).toMatchObject({ era: 'pre-streamable', sessions: false, known: false });
  });

  it('treats a missing or malformed revision as the default the spec assumes', () => {
    expect(revisionTraits(undefined)).toMatchObject({ revision: DEFAULT_REVISION, era: 'sessionful', known: false });
    expect(revisionTraits('latest')).toMatchObject({ revision: 'latest', sessions: true, versionHeader: false, known: false });
  });
});

describe('isSessionful', () => {
  it('is the sessions trait', () => {
    expect(isSessionful('2025-06-18')).toBe(true);
    expect(isSessionful('2026-07-28')).toBe(false);
    expect(isSessionful('2030-01-01')).toBe(false);
  });
});

describe('revisionTraits: sloppy input', () => {
  it('ignores surrounding white space, and names the default for an empty value', () => {
    expect(revisionTraits(' 2026-07-28 ')).toMatchObject({ revision: '2026-07-28', sessions: false, known: true });
    expect(revisionTraits('')).toMatchObject({ revision: DEFAULT_REVISION, known: false });
  });

  it('knows no revision named after an Object.prototype member', () => {
    for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      expect(revisionTraits(name)).toMatchObject({ revision: name, era: 'sessionful', sessions: true, known: false });
    }
  });
});
