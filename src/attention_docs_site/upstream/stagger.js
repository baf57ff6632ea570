
// attention_docs (src/attention_docs_site/upstream/material_bundle.py): the site's copy of
// Material's bundle calls this in place of RxJS's merge() where it mounts the
// page's components, so that they start in many short tasks rather than one
// long task that holds a phone's main thread. Each argument is a function
// that mounts one kind of component (Material wrote `...me("toc").map(…)`,
// the site `() => me("toc").map(…)`) and returns their observables. In a task
// of its own, each function is called; then each observable is subscribed to,
// in a task of its own. It is merge() otherwise: every value and error passes
// through, and it completes when every component has. Unsubscribing (instant
// navigation to another page) cancels what has not started and unsubscribes
// the rest. RxJS takes it as an interop observable: an object whose
// "@@observable" (Symbol.observable where it exists) returns something with
// subscribe().
function __adStagger(...mounts) {
  const key = (typeof Symbol === "function" && Symbol.observable) || "@@observable";
  return {
    [key]() {
      return this;
    },
    subscribe(observer) {
      let open = mounts.length; // mounts not called yet, and sources not done
      let closed = false;
      const timers = [];
      const started = [];
      const later = (work) => timers.push(setTimeout(() => closed || work(), 0));
      const done = () => closed || --open > 0 || observer.complete();
      const subscribe = (source) => {
        const subscription = source.subscribe({
          next: (value) => closed || observer.next(value),
          error: (error) => closed || observer.error(error),
          complete: done,
        });
        // Unsubscribed while the source started (by a value it sent at once)?
        if (closed) subscription.unsubscribe();
        else started.push(subscription);
      };
      if (open === 0) observer.complete();
      for (const mount of mounts)
        later(() => {
          let sources;
          try {
            sources = mount();
          } catch (error) {
            return observer.error(error);
          }
          open += sources.length;
          for (const source of sources) later(() => subscribe(source));
          done(); // this mount's own count
        });
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
