
// attention_docs (src/attention_docs_site/theme_js.py): the site's copy of
// Material's bundle calls this in place of RxJS's merge() where it mounts the
// page's components, so that each component starts in a task of its own, not
// all of them in one long task that holds a phone's main thread. It is merge()
// otherwise: every value and error passes through, and it completes when all
// the components have; unsubscribing (instant navigation to another page)
// cancels the components not started yet and unsubscribes the others.
// RxJS takes it as an interop observable: an object whose "@@observable"
// (Symbol.observable where it exists) returns something with subscribe().
function __adStagger(...sources) {
  const key = (typeof Symbol === "function" && Symbol.observable) || "@@observable";
  return {
    [key]() {
      return this;
    },
    subscribe(observer) {
      let open = sources.length;
      let closed = false;
      const timers = [];
      const started = [];
      if (open === 0) observer.complete();
      for (const source of sources)
        timers.push(setTimeout(() => {
          if (closed) return;
          const subscription = source.subscribe({
            next: (value) => closed || observer.next(value),
            error: (error) => closed || observer.error(error),
            complete: () => closed || --open > 0 || observer.complete(),
          });
          // Unsubscribed while the source started (by a value it sent at once)?
          if (closed) subscription.unsubscribe();
          else started.push(subscription);
        }, 0));
      return {
        unsubscribe() {
          closed = true;
          timers.forEach(clearTimeout);
          started.forEach((subscription) => subscription.unsubscribe());
        },
      };
    },
  };
}
