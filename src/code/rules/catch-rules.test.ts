// The error-handling rules in every language they claim, with real grammars: a reported sample
// and a near miss each, plus the catch-all rule's rethrow and narrow-type exemptions.
import { describe, expect, it } from 'vitest';

import { type Case, run, suite } from '../../../test/code/rule-cases.js';

const JS_CATCH: Case = [
  'typescript',
  'try {\n  g();\n} catch (e) {}\n',
  'try {\n  g();\n} catch (e) {\n  // expected: g may be absent\n}\n',
  3,
];
suite('empty-catch', [
  JS_CATCH,
  ['tsx', JS_CATCH[1], JS_CATCH[2], 3],
  ['javascript', JS_CATCH[1], 'try { g(); } catch (e) { log(e); }\n', 3],
  [
    'python',
    'try:\n    g()\nexcept ValueError:\n    pass\n',
    'try:\n    g()\nexcept ValueError:\n    log()\n',
    3,
  ],
  [
    'java',
    'class A { void f() {\n try { g(); }\n catch (Exception e) {}\n} }\n',
    'class A { void f() {\n try { g(); }\n catch (Exception e) { log(e); }\n} }\n',
    3,
  ],
  [
    'cpp',
    'void f() {\n  try { g(); }\n  catch (...) {}\n}\n',
    'void f() {\n  try { g(); }\n  catch (...) { log(); }\n}\n',
    3,
  ],
  [
    'csharp',
    'class A { void F() {\n try { G(); }\n catch (Exception e) { }\n} }\n',
    'class A { void F() {\n try { G(); }\n catch (Exception e) { Log(e); }\n} }\n',
    3,
  ],
  [
    'php',
    '<?php\ntry { g(); }\ncatch (Exception $e) {}\n',
    '<?php\ntry { g(); }\ncatch (Exception $e) { log($e); }\n',
    3,
  ],
  [
    'ruby',
    'begin\n  g\nrescue StandardError => e\nend\n',
    'begin\n  g\nrescue StandardError\n  # optional: g may be missing\nend\nx = g rescue nil\n',
    3,
  ],
  [
    'kotlin',
    'fun f() {\n  try { g() }\n  catch (e: Exception) {}\n}\n',
    'fun f() {\n  try { g() }\n  catch (e: Exception) { // absent is fine\n  }\n}\n',
    3,
  ],
]);

const JS_SWALLOW: Case = [
  'typescript',
  'try {\n  g();\n} catch (e) {\n  retry();\n}\n',
  'try {\n  g();\n} catch (e) {\n  log(e);\n}\ntry {\n  g();\n} catch (e) {\n  cleanup();\n  throw new Wrapped();\n}\n',
  3,
];
suite('swallowed-error', [
  JS_SWALLOW,
  ['tsx', JS_SWALLOW[1], JS_SWALLOW[2], 3],
  [
    'javascript',
    'try { g(); } catch (err) { x = 1; }\n',
    'try { g(); } catch { x = 1; }\ntry { g(); } catch (err) {}\n',
    1,
  ],
  [
    'python',
    'try:\n    g()\nexcept ValueError as e:\n    retry()\n',
    'try:\n    g()\nexcept ValueError as e:\n    log(e)\nexcept KeyError as k:\n    raise\nexcept OSError:\n    retry()\n',
    3,
  ],
  [
    'java',
    'class A { void f() {\n try { g(); }\n catch (Exception e) { retry(); }\n} }\n',
    'class A { void f() {\n try { g(); }\n catch (Exception e) { throw new RuntimeException(); }\n} }\n',
    3,
  ],
  [
    'cpp',
    'void f() {\n  try { g(); }\n  catch (const std::exception& e) { retry(); }\n}\n',
    'void f() {\n  try { g(); }\n  catch (const std::exception& e) { log(e.what()); }\n  try { g(); } catch (std::exception* p) { throw; }\n  try { g(); } catch (...) { retry(); }\n}\n',
    3,
  ],
  [
    'csharp',
    'class A { void F() {\n try { G(); }\n catch (Exception e) { Retry(); }\n} }\n',
    'class A { void F() {\n try { G(); }\n catch (Exception e) { Log(e); }\n try { G(); } catch (IOException) { Retry(); }\n} }\n',
    3,
  ],
  [
    'php',
    '<?php\ntry { g(); }\ncatch (Exception $e) { retry(); }\n',
    '<?php\ntry { g(); }\ncatch (Exception $e) { log("failed: $e"); }\ntry { g(); } catch (A $e) { throw new B(); }\n',
    3,
  ],
  [
    'ruby',
    'begin\n  g\nrescue IOError => e\n  retry_later\nend\n',
    'begin\n  g\nrescue IOError => e\n  log "failed: #{e}"\nend\nbegin\n  g\nrescue IOError => e\n  cleanup\n  raise\nend\n',
    3,
  ],
  [
    'kotlin',
    'fun f() {\n  try { g() }\n  catch (e: Exception) { retry() }\n}\n',
    'fun f() {\n  try { g() }\n  catch (e: Exception) { log(e) }\n  try { g() } catch (e: Exception) { throw IllegalStateException() }\n}\n',
    3,
  ],
]);

suite('catch-all', [
  [
    'python',
    'try:\n    g()\nexcept:\n    log()\n',
    'try:\n    g()\nexcept Exception:\n    log()\nexcept BaseException:\n    cleanup()\n    raise\n',
    3,
  ],
  [
    'java',
    'class A { void f() {\n try { g(); }\n catch (Throwable t) { log(t); }\n} }\n',
    'class A { void f() {\n try { g(); }\n catch (Exception e) { log(e); }\n try { g(); } catch (Throwable t) { throw t; }\n} }\n',
    3,
  ],
  [
    'kotlin',
    'fun f() {\n  try { g() }\n  catch (t: Throwable) { log(t) }\n}\n',
    'fun f() {\n  try { g() }\n  catch (e: Exception) { log(e) }\n}\n',
    3,
  ],
  [
    'ruby',
    'begin\n  g\nrescue Exception => e\n  log e\nend\n',
    'begin\n  g\nrescue => e\n  log e\nend\nbegin\n  g\nrescue Exception\n  raise\nend\n',
    3,
  ],
  [
    'php',
    '<?php\ntry { g(); }\ncatch (\\Throwable $t) { log($t); }\n',
    '<?php\ntry { g(); }\ncatch (Exception $e) { log($e); }\n',
    3,
  ],
]);

describe('catch-all', () => {
  it('sees the everything-type inside a tuple and names it', async () => {
    const text = 'try:\n    g()\nexcept (ValueError, BaseException) as e:\n    log(e)\n';
    const findings = await run('catch-all', 'python', text);
    expect(findings.map((f) => [f.line, f.message])).toEqual([
      [
        3,
        'catching BaseException also swallows interrupts and fatal errors; catch a narrower type or rethrow',
      ],
    ]);
  });
});

describe('swallowed-error', () => {
  it('a use inside a shorthand property or a string template counts', async () => {
    const ts = 'try { g(); } catch (err) {\n  logger.error({ err }, "failed");\n}\n';
    expect(await run('swallowed-error', 'typescript', ts)).toEqual([]);
    const kt = 'fun f() {\n  try { g() } catch (e: Exception) { log("failed: $e") }\n}\n';
    expect(await run('swallowed-error', 'kotlin', kt)).toEqual([]);
  });
});
