"""Fan-out: each new outbox event becomes one delivery per endpoint that receives it.

An endpoint receives an event when it is enabled, of an enabled installation of the event's tenant,
subscribed to the event's type, and still allowed to see it (``_receives``). The deliveries and the
event's ``dispatched`` stamp are written in one transaction, so an event is fanned out once.
"""

from __future__ import annotations

from storage import outbox
from storage import webhooks as store
from tessera.registry.operational import OPERATIONAL_EVENTS
from tessera.runtime import Runtime
from tessera.webhooks.sending import traced as tracing


async def dispatch(rt: Runtime, limit: int = 200, tenant_id: int | None = None) -> int:
    """Fan new outbox events (only the tenant's when one is given) out to subscribed endpoints;
    returns the number of deliveries made.

    With tracing on, a batch that found events is a ``webhook.fanout`` span linked to each event's
    hand-off, and each event's share of it a ``webhook.fanout.event`` span continuing that event's
    trace (``tracing``): the batch's trace shows the worker's work, each event's trace its path
    from the command to the receiver."""
    made = 0
    now = rt.clock.now()
    async with rt.db.write() as conn:
        events = await store.pending_events(conn, limit, tenant_id)
        with tracing.batch(events):
            endpoints_by_tenant: dict[int, list[store.SubscriberRow]] = {}
            for event in events:
                if event.tenant_id not in endpoints_by_tenant:
                    endpoints_by_tenant[event.tenant_id] = await store.subscribed_endpoints(conn, event.tenant_id)
                with tracing.event(event) as span:
                    made_for_event = 0
                    for endpoint in endpoints_by_tenant[event.tenant_id]:
                        if _receives(rt, endpoint, event):
                            await store.create_delivery(conn, event.id, endpoint.id, now, event.request_id)
                            made_for_event += 1
                    if span is not None:
                        span.set_attribute("tessera.webhook.deliveries", made_for_event)
                made += made_for_event
            if events:
                await store.mark_dispatched(conn, [e.id for e in events], now)
    return made


def _receives(rt: Runtime, endpoint: store.SubscriberRow, event: outbox.OutboxEventRow) -> bool:
    """A subscribed endpoint receives a published event if its installation may still read the
    resource (scopes may have been narrowed since it subscribed), and an operational event if it
    concerns the endpoint's own application."""
    if event.event_type not in endpoint.event_types:
        return False
    if event.event_type in OPERATIONAL_EVENTS:
        return bool(event.payload.get("applicationId") == endpoint.application_pid)
    published = rt.capabilities.webhook_events.get(event.event_type)
    return published is not None and published.resource.read_scope in endpoint.scopes
