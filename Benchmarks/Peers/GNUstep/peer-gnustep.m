/* peer-gnustep: the peer workloads (Benchmarks/Peers/README.md) on GNUstep's Foundation.
 *
 *     peer-gnustep [--quick] [--min-time SECONDS] [--filter TEXT]
 *
 * Built by build.sh with Debian's gobjc and libgnustep-base-dev (manual retain/release: GCC's
 * Objective-C has neither ARC nor blocks, so the workloads are functions taking a context).
 * Same data set, fingerprint, harness rules and output lines as the Swift programs
 * (Support/PeerDataSet.swift, Support/PeerHarness.swift).
 */
#import <Foundation/Foundation.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* ---- Models ---- */

@class Department;

@interface Person : NSObject {
  NSString *name, *firstName, *lastName;
  NSInteger age, identifier;
  double salary;
  BOOL active;
  Department *department;
}
@property (retain) NSString *name;
@property (retain) NSString *firstName;
@property (retain) NSString *lastName;
@property NSInteger age;
@property double salary;
@property NSInteger identifier;
@property BOOL active;
@property (retain) Department *department;
@end

@interface Department : NSObject {
  NSString *name;
  Person *manager;
}
@property (retain) NSString *name;
@property (retain) Person *manager;
@end

@implementation Person
@synthesize name, firstName, lastName, age, salary, identifier, active, department;
- (void) dealloc {
  [name release]; [firstName release]; [lastName release]; [department release];
  [super dealloc];
}
@end

@implementation Department
@synthesize name, manager;
- (void) dealloc { [name release]; [manager release]; [super dealloc]; }
@end

@interface Transaction : NSObject {
  NSString *payee;
  double amount;
}
@property (retain) NSString *payee;
@property double amount;
@end

@implementation Transaction
@synthesize payee, amount;
- (void) dealloc { [payee release]; [super dealloc]; }
@end

/* ---- Data set ---- */

static uint64_t lcgState = 42;

static long nextRandom(void) {
  lcgState = lcgState * 6364136223846793005ULL + 1442695040888963407ULL;
  return (long)(lcgState >> 33);
}

static const char *firstNames[16] = {
  "alice", "Adam", "bob", "Beth", "carol", "Chris", "dave", "Diana",
  "erin", "Frank", "grace", "Heidi", "ivan", "Judy", "mallory", "Anna"
};

static Person *makePerson(NSInteger identifier) {
  Person *p = [[Person alloc] init];
  NSString *first = [NSString stringWithUTF8String: firstNames[nextRandom() % 16]];
  [p setFirstName: first];
  [p setName: first];
  [p setLastName: [NSString stringWithFormat: @"Last%03ld", nextRandom() % 1000]];
  [p setAge: 18 + nextRandom() % 63];
  [p setSalary: (double)(nextRandom() % 200000) / 2.0];
  [p setActive: (nextRandom() & 1) == 1];
  [p setIdentifier: identifier];
  return [p autorelease];
}

static NSArray *persons, *departments, *transactions;

static void buildDataSet(void) {
  NSString *names[10] = { @"d0", @"d1", @"d2", @"d3", @"d4", @"d5", @"d6", @"d7", @"x", @"y" };
  NSMutableArray *d = [NSMutableArray array], *p = [NSMutableArray array], *t = [NSMutableArray array];
  int i;
  for (i = 0; i < 10; i++) {
    Department *department = [[[Department alloc] init] autorelease];
    [department setName: names[i]];
    [department setManager: makePerson(1000000 + i)];
    [d addObject: department];
  }
  for (i = 0; i < 100000; i++) {
    Person *person = makePerson(i);
    [person setDepartment: [d objectAtIndex: nextRandom() % 10]];
    [p addObject: person];
  }
  for (i = 0; i < 10000; i++) {
    Transaction *transaction = [[[Transaction alloc] init] autorelease];
    [transaction setAmount: (double)(nextRandom() % 100000) / 100.0];
    [transaction setPayee: [NSString stringWithFormat: @"payee%02ld", nextRandom() % 100]];
    [t addObject: transaction];
  }
  departments = [d retain];
  persons = [p retain];
  transactions = [t retain];
}

/* ---- Harness ---- */

static int quick = 0;
static double minimumTime = 0.5;
static int repetitions = 3;
static const char *filter = NULL;

typedef void (*Body)(void *context, long iterations);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int selects(const char *name) {
  return filter == NULL || strstr(name, filter) != NULL;
}

static double timeBody(Body body, void *context, long iterations) {
  double start = now();
  body(context, iterations);
  return now() - start;
}

static void emit(const char *name, double seconds) {
  printf("result %s %.3f\n", name, seconds * 1e9);
  fflush(stdout);
}

/* Warm up, grow N until a repetition lasts the minimum time, print the best of the repetitions. */
static void measure(const char *name, long operations, Body body, void *context) {
  long iterations = 1;
  double elapsed, best = 1e30;
  int r;
  if (!selects(name)) return;
  elapsed = timeBody(body, context, 1);  /* warm-up */
  if (quick && elapsed >= minimumTime) {
    /* Quick mode: one call already lasted long enough (a sort). */
    emit(name, elapsed / (double)operations);
    return;
  }
  elapsed = timeBody(body, context, iterations);
  while (elapsed < minimumTime / 10 && iterations < (1L << 40)) {
    iterations *= elapsed < minimumTime / 1000 ? 10 : 2;
    elapsed = timeBody(body, context, iterations);
  }
  {
    double scaled = (double)iterations * minimumTime / (elapsed > 1e-9 ? elapsed : 1e-9);
    if (scaled > iterations) iterations = (long)scaled + 1;
  }
  for (r = 0; r < repetitions; r++) {
    double t = timeBody(body, context, iterations) / (double)iterations;
    if (t < best) best = t;
  }
  emit(name, best / (double)operations);
}

/* Autorelease pools are drained every 1,024 iterations inside the loops. */
#define POOLED_LOOP(i, n, statement) do { \
  NSAutoreleasePool *pool__ = [NSAutoreleasePool new]; \
  long i; \
  for (i = 0; i < (n); i++) { \
    statement; \
    if ((i & 1023) == 1023) { [pool__ release]; pool__ = [NSAutoreleasePool new]; } \
  } \
  [pool__ release]; \
} while (0)

static volatile long sink;

/* ---- Key-value coding ---- */

static void kvcGet(void *c, long n) { POOLED_LOOP(i, n, sink += (long)[(id)c valueForKey: @"name"]); }
static void kvcGetInt(void *c, long n) { POOLED_LOOP(i, n, sink += (long)[(id)c valueForKey: @"age"]); }
static void kvcKeyPath(void *c, long n) {
  POOLED_LOOP(i, n, sink += (long)[(id)c valueForKeyPath: @"department.manager.name"]);
}

static NSString *collectionPath;
static void kvcCollection(void *c, long n) { POOLED_LOOP(i, n, sink += (long)[(id)c valueForKeyPath: collectionPath]); }

static id boxes[1024];
static void kvcSet(void *c, long n) { POOLED_LOOP(i, n, [(id)c setValue: boxes[i & 1023] forKey: @"age"]); }

static void propertyGet(void *c, long n) { long i, sum = 0; for (i = 0; i < n; i++) sum += [(Person *)c age]; sink += sum; }
static void propertySet(void *c, long n) { long i; for (i = 0; i < n; i++) [(Person *)c setAge: i]; }

/* ---- Predicates and sorting ---- */

static NSString *predicateFormat = @"age > 30 AND name BEGINSWITH[c] 'a' OR department.name IN {'x','y'}";
/* The same predicate as GNUstep 1.28 evaluates it correctly: it reads the string above with OR
   binding tighter than AND, and its literal aggregate {'x','y'} never matches with IN (an array
   argument does), so the precedence is written out and the names come as an argument. */
static NSString *workingFormat = @"(age > 30 AND name BEGINSWITH[c] 'a') OR department.name IN %@";

static void predicateParse(void *c, long n) {
  POOLED_LOOP(i, n, sink += (long)[NSPredicate predicateWithFormat: predicateFormat]);
}

static void predicateEval(void *c, long n) {
  POOLED_LOOP(i, n, sink += (long)[persons filteredArrayUsingPredicate: (NSPredicate *)c]);
}

static void sortPersons(void *c, long n) {
  POOLED_LOOP(i, n, sink += (long)[persons sortedArrayUsingDescriptors: (NSArray *)c]);
}

/* ---- Key-value observing ---- */

@interface Counter : NSObject {
@public
  long count;
}
@end

@implementation Counter
- (void) observeValueForKeyPath: (NSString *)keyPath ofObject: (id)object
                         change: (NSDictionary *)change context: (void *)context {
  if ([change objectForKey: NSKeyValueChangeNewKey] != nil && [change objectForKey: NSKeyValueChangeOldKey] != nil)
    count++;
}
@end

static long runningValue = 0;
static void kvoNotify(void *c, long n) {
  POOLED_LOOP(i, n, [(Person *)c setAge: ++runningValue]);
}

static Counter *registrar;
static void kvoRegister(void *c, long n) {
  POOLED_LOOP(i, n, {
    [(Person *)c addObserver: registrar forKeyPath: @"age"
                     options: NSKeyValueObservingOptionNew | NSKeyValueObservingOptionOld context: NULL];
    [(Person *)c removeObserver: registrar forKeyPath: @"age"];
  });
}

static Person *managers[2];
static void chainLeaf(void *c, long n) {
  POOLED_LOOP(i, n, { runningValue++; [(Person *)c setName: (runningValue & 1) ? @"b" : @"a"]; });
}
static void chainRewire(void *c, long n) {
  POOLED_LOOP(i, n, { runningValue++; [(Department *)c setManager: managers[runningValue & 1]]; });
}

static Person *scratchPerson(void) {
  Person *p = [[[Person alloc] init] autorelease];
  [p setName: @"scratch"]; [p setFirstName: @"scratch"]; [p setLastName: @"Scratch"];
  return p;
}

static void check(int condition, const char *message, long value) {
  if (!condition) {
    fprintf(stderr, "peer-gnustep: %s (%ld)\n", message, value);
    exit(1);
  }
}

static void runObserving(void) {
  NSKeyValueObservingOptions options = NSKeyValueObservingOptionNew | NSKeyValueObservingOptionOld;
  Person *unobserved = scratchPerson();
  Counter *counter = [[Counter new] autorelease];
  int observers, k;
  measure("property_get", 1, propertyGet, [persons objectAtIndex: 0]);
  measure("kvo_set_unobserved", 1, propertySet, unobserved);
  for (observers = 1; observers <= 10; observers += 9) {
    /* Distinct observers: GNUstep keeps one registration per observer and key path. */
    Person *observed = scratchPerson();
    Counter *counters[10];
    long before = runningValue, total = 0;
    char name[32];
    for (k = 0; k < observers; k++) {
      counters[k] = [[Counter new] autorelease];
      [observed addObserver: counters[k] forKeyPath: @"age" options: options context: NULL];
    }
    snprintf(name, sizeof name, "kvo_notify_%d", observers);
    measure(name, 1, kvoNotify, observed);
    for (k = 0; k < observers; k++) {
      total += counters[k]->count;
      [observed removeObserver: counters[k] forKeyPath: @"age"];
    }
    check(total == (runningValue - before) * observers, "kvo_notify: callback count", total);
  }
  {
    Person *target = scratchPerson();
    Counter *kept = [[Counter new] autorelease];
    registrar = [[Counter new] autorelease];
    measure("kvo_register", 1, kvoRegister, target);
    [target addObserver: kept forKeyPath: @"age" options: options context: NULL];
    measure("kvo_register_kept", 1, kvoRegister, target);
    [target removeObserver: kept forKeyPath: @"age"];
  }
  {
    Person *root = scratchPerson();
    Department *department = [[[Department alloc] init] autorelease];
    long before;
    managers[0] = scratchPerson();
    managers[1] = scratchPerson();
    [managers[1] setName: @"other"];
    [department setName: @"chain"];
    [department setManager: managers[0]];
    [root setDepartment: department];
    [root addObserver: counter forKeyPath: @"department.manager.name" options: options context: NULL];
    counter->count = 0;
    before = runningValue;
    measure("kvo_keypath_chain_leaf", 1, chainLeaf, managers[0]);
    check(counter->count == runningValue - before, "kvo_keypath_chain_leaf: callback count", counter->count);
    counter->count = 0;
    before = runningValue;
    [department setManager: managers[runningValue & 1]];
    counter->count = 0;
    measure("kvo_keypath_chain_rewire", 1, chainRewire, department);
    check(counter->count == runningValue - before, "kvo_keypath_chain_rewire: callback count", counter->count);
    [root removeObserver: counter forKeyPath: @"department.manager.name"];
  }
}

/* ---- Undo ---- */

@interface UndoModel : NSObject {
@public
  NSUndoManager *undoManager;
  long value;
}
- (void) setValueObject: (NSNumber *)number;
@end

@implementation UndoModel
- (void) setValueObject: (NSNumber *)number {
  [undoManager registerUndoWithTarget: self selector: @selector(setValueObject:)
                               object: [NSNumber numberWithLong: value]];
  value = [number longValue];
}
@end

static void runUndo(void) {
  const char *names[3] = { "undo_register", "undo_undo", "undo_redo" };
  long count = quick ? 1000 : 1000000, cycles, c;
  double best[3] = { 1e30, 1e30, 1e30 }, warm = 0;
  int r, phase;
  UndoModel *model = [[UndoModel new] autorelease];
  model->undoManager = [[NSUndoManager new] autorelease];
  [model->undoManager setGroupsByEvent: NO];
  if (!selects("undo_")) return;
  /* Cycle 0 is the warm-up; it also sizes a repetition (cycles whose register phase lasts the
     minimum time). */
  cycles = 1;
  for (r = -1; r < repetitions; r++) {
    double total[3] = { 0, 0, 0 };
    for (c = 0; c < cycles; c++) {
      double start = now();
      POOLED_LOOP(i, count, {
        [model->undoManager beginUndoGrouping];
        [model setValueObject: [NSNumber numberWithLong: i + 1]];
        [model->undoManager endUndoGrouping];
      });
      total[0] += now() - start;
      check(model->value == count, "undo_register: value", model->value);
      start = now();
      POOLED_LOOP(i, count, { if ([model->undoManager canUndo]) [model->undoManager undo]; });
      total[1] += now() - start;
      check(model->value == 0 && ![model->undoManager canUndo], "undo_undo: value", model->value);
      start = now();
      POOLED_LOOP(i, count, { if ([model->undoManager canRedo]) [model->undoManager redo]; });
      total[2] += now() - start;
      check(model->value == count && ![model->undoManager canRedo], "undo_redo: value", model->value);
      [model->undoManager removeAllActions];
      model->value = 0;
    }
    if (r < 0) {
      warm = total[0];
      cycles = (long)(minimumTime / (warm > 1e-9 ? warm : 1e-9)) + 1;
      continue;
    }
    for (phase = 0; phase < 3; phase++)
      if (total[phase] / cycles < best[phase]) best[phase] = total[phase] / cycles;
  }
  for (phase = 0; phase < 3; phase++)
    if (selects(names[phase])) emit(names[phase], best[phase] / (double)count);
}

/* ---- Main ---- */

int main(int argc, const char **argv) {
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  int a, i;
  for (a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--quick") == 0) quick = 1;
    else if (strcmp(argv[a], "--min-time") == 0 && a + 1 < argc) minimumTime = atof(argv[++a]);
    else if (strcmp(argv[a], "--filter") == 0 && a + 1 < argc) filter = argv[++a];
    else { fprintf(stderr, "usage: peer-gnustep [--quick] [--min-time SECONDS] [--filter TEXT]\n"); return 2; }
  }
  if (quick) { repetitions = 1; if (minimumTime == 0.5) minimumTime = 0.001; }
  printf("toolchain GNUstep base %d.%d.%d (gobjc %s)\n", GNUSTEP_BASE_MAJOR_VERSION, GNUSTEP_BASE_MINOR_VERSION,
         GNUSTEP_BASE_SUBMINOR_VERSION, __VERSION__);

  buildDataSet();
  {
    Person *first = [persons objectAtIndex: 0];
    NSArray *sortDescriptors = [NSArray arrayWithObjects:
      [[[NSSortDescriptor alloc] initWithKey: @"lastName" ascending: YES] autorelease],
      [[[NSSortDescriptor alloc] initWithKey: @"age" ascending: NO] autorelease], nil];
    NSArray *sorted = [persons sortedArrayUsingDescriptors: sortDescriptors];
    Person *low = [sorted objectAtIndex: 0], *high = [sorted lastObject];
    NSPredicate *asWritten = [NSPredicate predicateWithFormat: predicateFormat];
    NSPredicate *predicate = [NSPredicate predicateWithFormat: workingFormat,
      [NSArray arrayWithObjects: @"x", @"y", nil]];
    unsigned long matchesAsWritten = [[persons filteredArrayUsingPredicate: asWritten] count];
    unsigned long matches = [[persons filteredArrayUsingPredicate: predicate] count];
    NSString *line = [NSString stringWithFormat:
      @"fingerprint first=%@/%ld manager=%@ sum=%.2f max=%.2f payees=%lu sorted=%@/%ld..%@/%ld matches=%lu",
      [first valueForKey: @"name"], (long)[[first valueForKey: @"age"] integerValue],
      [first valueForKeyPath: @"department.manager.name"],
      [[transactions valueForKeyPath: @"@sum.amount"] doubleValue],
      [[transactions valueForKeyPath: @"@max.amount"] doubleValue],
      (unsigned long)[[transactions valueForKeyPath: @"@distinctUnionOfObjects.payee"] count],
      [low lastName], (long)[low age], [high lastName], (long)[high age], matches];
    const char *expected = "fingerprint first=mallory/38 manager=Chris sum=5007573.31 max=999.90 payees=100 "
                           "sorted=Last000/80..Last999/18 matches=31873";
    printf("peer gnustep\n%s\n", [line UTF8String]);
    if (strcmp([line UTF8String], expected) != 0) {
      printf("fingerprint-check mismatch: expected %s\n", expected);
      return 1;
    }
    printf("fingerprint-check ok\n");
    printf("note predicate_eval evaluated as (age > 30 AND name BEGINSWITH[c] 'a') OR department.name IN %%@ "
           "with the array (x, y): GNUstep 1.28 reads the string as written with OR binding tighter than AND, and "
           "its literal {'x','y'} never matches with IN, so the string as written matches %lu persons instead of %lu\n",
           matchesAsWritten, matches);
    printf("note kvo_register GNUstep swaps the object's class on the first observer and back on the last (part of this figure)\n");
    fflush(stdout);

    measure("kvc_get", 1, kvcGet, first);
    measure("kvc_get_int", 1, kvcGetInt, first);
    for (i = 0; i < 1024; i++) boxes[i] = [[NSNumber alloc] initWithInt: i];
    measure("kvc_set", 1, kvcSet, scratchPerson());
    measure("kvc_keypath", 1, kvcKeyPath, first);
    collectionPath = @"@sum.amount"; measure("kvc_sum", 1, kvcCollection, transactions);
    collectionPath = @"@avg.amount"; measure("kvc_avg", 1, kvcCollection, transactions);
    collectionPath = @"@max.amount"; measure("kvc_max", 1, kvcCollection, transactions);
    collectionPath = @"@distinctUnionOfObjects.payee"; measure("kvc_distinctUnion", 1, kvcCollection, transactions);
    measure("predicate_eval", 100000, predicateEval, predicate);
    measure("sort_100k", 1, sortPersons, sortDescriptors);
    measure("predicate_parse", 1, predicateParse, NULL);
  }
  runObserving();
  runUndo();
  [pool release];
  return 0;
}
