/* eslint-disable max-lines -- generated: one file of the whole document */
// GENERATED FILE, do not edit: npm run dashboard:types (scripts/dashboard-types.mjs) writes it
// with openapi-typescript from the OpenAPI document the server serves at /api/v1/openapi.json
// (its examples left out: they carry no type, and were half the file). Regenerate it after
// changing a route's schema; test/server/routes/dashboard-types.test.ts fails while it differs.
// Pages read it through api-types.d.ts beside it: Answer<'/dashboard/summary', 'get'>.

export interface paths {
    "/tokens/jsonp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tokenize from a web page (JSONP)
         * @description The tokenizer's script load: answers `callback({...})` with status 200, the token or `{ errors }` inside, as POST /tokens would (key, card and rate-limit codes).
         */
        get: operations["get_tokens_jsonp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Tokenize a card or bank account
         * @description Accepts the public key.
         */
        post: operations["post_tokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a token (never its number) */
        get: operations["get_tokens_token_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List customers, newest first */
        get: operations["get_customers"];
        put?: never;
        /** Create a customer */
        post: operations["post_customers"];
        /** Delete a customer named by id in the query or body */
        delete: operations["delete_customers"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Search customers by name, company or id */
        post: operations["post_customers_search"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a customer with its methods */
        get: operations["get_customers_id"];
        put?: never;
        /** Update a customer */
        post: operations["post_customers_id"];
        /** Delete a customer and its methods */
        delete: operations["delete_customers_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers/{customer_id}/methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a customer's payment methods */
        get: operations["get_customers_customer_id_methods"];
        put?: never;
        /** Add a payment method to a customer */
        post: operations["post_customers_customer_id_methods"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customers/{customer_id}/methods/{method_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a payment method */
        get: operations["get_customers_customer_id_methods_method_id"];
        put?: never;
        /** Replace the card or account of a payment method */
        post: operations["post_customers_customer_id_methods_method_id"];
        /** Delete a payment method */
        delete: operations["delete_customers_customer_id_methods_method_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/charge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Charge a token, a stored method or a card */
        post: operations["post_charge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/charge/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a transaction */
        get: operations["get_charge_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/charge/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refund a settled charge, whole or in part */
        post: operations["post_charge_id_cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List transactions, newest first */
        get: operations["get_transactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve the settings of the key’s environment */
        get: operations["get_settings"];
        put?: never;
        /** Change settings: verification, receipt defaults, allowed origins */
        post: operations["post_settings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test_helpers/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Wipe the test environment (keys and signing secret stay) */
        post: operations["post_test_helpers_reset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test_helpers/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deliver what is due now and say what happened */
        post: operations["post_test_helpers_settle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipts/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List receipt templates, newest first */
        get: operations["get_receipts_templates"];
        put?: never;
        /** Create a receipt template */
        post: operations["post_receipts_templates"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipts/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a receipt template */
        get: operations["get_receipts_templates_id"];
        put?: never;
        /** Update a receipt template */
        post: operations["post_receipts_templates_id"];
        /** Delete a receipt template */
        delete: operations["delete_receipts_templates_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/charge/{id}/receipt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a receipt for a charge (email or SMS) */
        post: operations["post_charge_id_receipt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/receipts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a receipt and its delivery */
        get: operations["get_receipts_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/outbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List queued emails and SMS, newest first */
        get: operations["get_outbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/outbox/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a queued email or SMS */
        get: operations["get_outbox_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/outbox/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a failed message again */
        post: operations["post_outbox_id_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/event_types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the event types rules can match */
        get: operations["get_webhooks_event_types"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List events, newest first */
        get: operations["get_events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an event */
        get: operations["get_events_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook rules */
        get: operations["get_webhooks_rules"];
        put?: never;
        /** Create a webhook rule (which events, on what conditions) */
        post: operations["post_webhooks_rules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a webhook rule */
        get: operations["get_webhooks_rules_id"];
        /** Update a webhook rule */
        put: operations["put_webhooks_rules_id"];
        post?: never;
        /** Delete a webhook rule */
        delete: operations["delete_webhooks_rules_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/rule/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Update a webhook rule (the spec’s singular path) */
        put: operations["put_webhooks_rule_id"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/rules/{rule_id}/strategies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Relate a strategy to a rule */
        post: operations["post_webhooks_rules_rule_id_strategies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/rules/{rule_id}/strategies/{strategy_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Unrelate a strategy from a rule */
        delete: operations["delete_webhooks_rules_rule_id_strategies_strategy_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/strategies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook strategies */
        get: operations["get_webhooks_strategies"];
        put?: never;
        /** Create a webhook strategy (where and how events are sent) */
        post: operations["post_webhooks_strategies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/strategies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a webhook strategy */
        get: operations["get_webhooks_strategies_id"];
        /** Update a webhook strategy */
        put: operations["put_webhooks_strategies_id"];
        post?: never;
        /** Delete a webhook strategy */
        delete: operations["delete_webhooks_strategies_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/strategies/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a signed test event to a webhook strategy now (listed under deliveries as a test) */
        post: operations["post_webhooks_strategies_id_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook deliveries, newest first */
        get: operations["get_webhooks_deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a webhook delivery with its attempts */
        get: operations["get_webhooks_deliveries_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/deliveries/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a failed delivery again */
        post: operations["post_webhooks_deliveries_id_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve the signing secret (made on first read) */
        get: operations["get_webhooks_secret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the signing secret */
        post: operations["post_webhooks_secret_rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List plans (all of them without a limit) */
        get: operations["get_plans"];
        put?: never;
        /** Create a plan */
        post: operations["post_plans"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a plan */
        get: operations["get_plans_id"];
        put?: never;
        post?: never;
        /** Delete a plan without active subscriptions */
        delete: operations["delete_plans_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plans/{id}/subscription/{customer_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Subscribe a customer to a plan */
        post: operations["post_plans_id_subscription_customer_id"];
        /** Unsubscribe a customer from a plan */
        delete: operations["delete_plans_id_subscription_customer_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List subscriptions (all of them without a limit) */
        get: operations["get_subscriptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/customer/{customer_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a customer's subscriptions */
        get: operations["get_subscriptions_customer_customer_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/plan/{plan_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a plan's subscriptions */
        get: operations["get_subscriptions_plan_plan_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/plan/{plan_id}/customer/{customer_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve the subscription of a customer on a plan, with their history */
        get: operations["get_subscriptions_plan_plan_id_customer_customer_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a subscription */
        get: operations["get_subscriptions_id"];
        put?: never;
        /** Change an active subscription (amount, method, ends_after, metadata) */
        post: operations["post_subscriptions_id"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List billings, newest first */
        get: operations["get_billings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a billing by its transaction id */
        get: operations["get_billings_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/billings/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retry a failed billing now */
        post: operations["post_billings_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scheduled_transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List scheduled transactions */
        get: operations["get_scheduled_transactions"];
        put?: never;
        /** Schedule a charge for a day */
        post: operations["post_scheduled_transactions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scheduled_transactions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a scheduled transaction */
        get: operations["get_scheduled_transactions_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scheduled_transactions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a scheduled transaction not billed yet */
        post: operations["post_scheduled_transactions_id_cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test_helpers/clock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the merchant's test clock */
        get: operations["get_test_helpers_clock"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/test_helpers/clock/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move the test clock forward, running what falls due
         * @description A short advance answers 200 when done; a long one 202 with how far it got, and goes on in the background.
         */
        post: operations["post_test_helpers_clock_advance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List invoices, newest first */
        get: operations["get_invoices"];
        put?: never;
        /** Create an invoice (emailed when it has an email address) */
        post: operations["post_invoices"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an invoice */
        get: operations["get_invoices_id"];
        put?: never;
        /** Update an unpaid invoice */
        post: operations["post_invoices_id"];
        /** Delete an unpaid invoice */
        delete: operations["delete_invoices_id"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}/deliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Email an invoice again */
        post: operations["post_invoices_id_deliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}/mark_as_paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record a payment of an invoice made outside the gateway */
        post: operations["post_invoices_id_mark_as_paid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit stored cards with new expiry dates (account updater) */
        post: operations["post_tokens_update"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tokens/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an account updater batch and its review */
        get: operations["get_tokens_update_id"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dashboard: the merchant, environment, test key and clock */
        get: operations["get_dashboard_overview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dashboard: the key sets, redacted */
        get: operations["get_dashboard_keys"];
        put?: never;
        /** Dashboard: make a new key set (its private key is shown once) */
        post: operations["post_dashboard_keys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/processor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dashboard: the processor connection of each environment (no secret) */
        get: operations["get_dashboard_processor"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/test-cards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dashboard: the test cards and their outcomes */
        get: operations["get_dashboard_test-cards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dashboard: transactions with filters, each with its customer's name and email */
        get: operations["get_dashboard_transactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Dashboard home: charges, declines, refunds and new customers per UTC day, totals and recent events */
        get: operations["get_dashboard_summary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search transactions, customers, invoices and subscriptions */
        get: operations["get_dashboard_search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/export/transactions.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export transactions (the filters of /dashboard/transactions) as CSV
         * @description Answers `text/csv; charset=utf-8` as an attachment, streamed: RFC 4180 with CRLF and a header row; in text cells a leading = + - @ TAB or CR, and = + - @ after a , ; TAB or line break inside the cell, get a ' before them (OWASP), and a cell holding , ; ' " TAB CR or LF is quoted; money as decimal units (`amount`) and integer cents (`amount_cents`); card numbers masked.
         */
        get: operations["get_dashboard_export_transactions.csv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/export/customers.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export customers as CSV
         * @description Answers `text/csv; charset=utf-8` as an attachment, streamed: RFC 4180 with CRLF and a header row; in text cells a leading = + - @ TAB or CR, and = + - @ after a , ; TAB or line break inside the cell, get a ' before them (OWASP), and a cell holding , ; ' " TAB CR or LF is quoted; money as decimal units (`amount`) and integer cents (`amount_cents`); card numbers masked.
         */
        get: operations["get_dashboard_export_customers.csv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/export/invoices.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export invoices as CSV
         * @description Answers `text/csv; charset=utf-8` as an attachment, streamed: RFC 4180 with CRLF and a header row; in text cells a leading = + - @ TAB or CR, and = + - @ after a , ; TAB or line break inside the cell, get a ' before them (OWASP), and a cell holding , ; ' " TAB CR or LF is quoted; money as decimal units (`amount`) and integer cents (`amount_cents`); card numbers masked.
         */
        get: operations["get_dashboard_export_invoices.csv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document (OpenAPI 3.1) */
        get: operations["get_openapi.json"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Errors: {
            errors: ({
                code: string;
                message: string;
            } & {
                [key: string]: unknown;
            })[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    get_tokens_jsonp: {
        parameters: {
            query: {
                /** @description The JavaScript function the answer calls. */
                callback: string;
                /** @description The public key (a private key here is refused as unknown). */
                public_api_key: string;
                /** @description credit_card (default) or bank_account. */
                token_type?: "credit_card" | "bank_account";
                /** @description Name on the card. */
                card_owner_name?: string;
                /** @description The card number (test mode: a test card). */
                card_number?: string;
                /** @description 1 to 12. */
                card_exp_month?: string;
                /** @description Four digits (or two). */
                card_exp_year?: string;
                /** @description Security code. */
                csc?: string;
                /** @description Security code (the same as csc). */
                cvv?: string;
                /** @description A bank account instead of a card. */
                bank_account_number?: string;
                /** @description ABA routing number, checksummed. */
                bank_routing_number?: string;
                /** @description Account holder's first name. */
                bank_account_holder_first_name?: string;
                /** @description Account holder's last name. */
                bank_account_holder_last_name?: string;
                /** @description checking or savings. */
                bank_account_type?: "checking" | "savings";
                /** @description Billing address. */
                address_1?: string;
                /** @description Billing address. */
                address_2?: string;
                /** @description City. */
                city?: string;
                /** @description Two-letter state. */
                state?: string;
                /** @description For address verification. */
                zip?: string;
                /** @description 3-letter ISO 3166 code (default USA). */
                country?: string;
                /** @description The amount the token is meant for, in cents (informational). */
                amount?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/javascript": string;
                };
            };
            /** @description `REQ01` invalid request; `JSONP01` callback must be a JavaScript identifier or dotted path */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_tokens: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code. */
                    csc?: string;
                    /** @description Security code (the same as csc). */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description For address verification. */
                    zip?: string;
                    /** @description 3-letter ISO 3166 code (default USA). */
                    country?: string;
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
                "application/x-www-form-urlencoded": {
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code. */
                    csc?: string;
                    /** @description Security code (the same as csc). */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description For address verification. */
                    zip?: string;
                    /** @description 3-letter ISO 3166 code (default USA). */
                    country?: string;
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
                "multipart/form-data": {
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code. */
                    csc?: string;
                    /** @description Security code (the same as csc). */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description For address verification. */
                    zip?: string;
                    /** @description 3-letter ISO 3166 code (default USA). */
                    country?: string;
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        /** @description Single use; expires 15 minutes after it is made. */
                        id: string;
                        /** @enum {string} */
                        token_type: "credit_card" | "bank_account";
                        card_type: string | null;
                        card_owner_name: string | null;
                        last_4: string | null;
                        card_exp_month: number | null;
                        card_exp_year: number | null;
                        bank_routing_number: string | null;
                        bank_account_holder_first_name: string | null;
                        bank_account_holder_last_name: string | null;
                        bank_account_type: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        expires_at: string;
                        used: boolean;
                        bin_brand: string | null;
                        bin_type: string | null;
                        bin_level: string | null;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `11112` invalid card number or improper format; `11301` invalid Visa card number; `11302` invalid Mastercard card number; `11303` invalid American Express card number; `11305` invalid Diners Club card number; `11306` invalid Discover card number; `234722` security code missing or invalid; `91703` account cannot be verified; `38501` amount must be a number of cents above zero; `TEST01` real card or account numbers cannot be used in test mode; use a test card */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `TKN01` token request failed, retry; `VAULT03` this node's data key (TESSERA_DATA_KEY) is not the one the cluster writes under (it was retired by tessera data-key reencrypt, or the cluster's key is not configured here); nothing was stored; retry, another node can take the request */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_tokens_token_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        /** @description Single use; expires 15 minutes after it is made. */
                        id: string;
                        /** @enum {string} */
                        token_type: "credit_card" | "bank_account";
                        card_type: string | null;
                        card_owner_name: string | null;
                        last_4: string | null;
                        card_exp_month: number | null;
                        card_exp_year: number | null;
                        bank_routing_number: string | null;
                        bank_account_holder_first_name: string | null;
                        bank_account_holder_last_name: string | null;
                        bank_account_type: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        expires_at: string;
                        used: boolean;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `882719` token not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_customers: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            first_name: string;
                            last_name: string;
                            company: string;
                            email: string;
                            phone: string;
                            fax: string;
                            website: string;
                            address_1: string;
                            address_2: string;
                            city: string;
                            state: string;
                            zip: string;
                            country: string;
                            metadata: {
                                [key: string]: unknown;
                            };
                            card_owner_name: string | null;
                            card_type: string;
                            last_4: string | null;
                            card_exp_month: number | null;
                            card_exp_year: number | null;
                            bank_account_number_last_4: string | null;
                            bank_routing_number: string | null;
                            bank_account_holder_first_name: string | null;
                            bank_account_holder_last_name: string | null;
                            bank_account_type: string | null;
                            default_receipts: boolean;
                            default_receipt_template_id: string | null;
                            default_method_id: string | null;
                            methods: {
                                /** @enum {string} */
                                class: "method" | "payment_method";
                                id: string;
                                customer_id: string;
                                /** @enum {string} */
                                method_type: "credit_card" | "bank_account";
                                card_owner_name: string | null;
                                card_exp_month: number | null;
                                card_exp_year: number | null;
                                bank_routing_number: string | null;
                                bank_account_holder_first_name: string | null;
                                bank_account_holder_last_name: string | null;
                                bank_account_type: string | null;
                                company: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                                last_4: string | null;
                                card_type: string | null;
                                csc_check: string | null;
                                bank_account_number_last_4: string | null;
                                address: {
                                    address_1: string | null;
                                    address_2: string | null;
                                    city: string | null;
                                    state: string | null;
                                    country: string | null;
                                    zip: string | null;
                                    company: string | null;
                                };
                            }[];
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_customers: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description At most 100 characters. */
                    first_name?: string;
                    /** @description At most 100 characters. */
                    last_name?: string;
                    /** @description At most 255 characters. */
                    company?: string;
                    /**
                     * Format: email
                     * @description At most 254 characters.
                     */
                    email?: string;
                    /** @description At most 32 characters. */
                    phone?: string;
                    /** @description At most 32 characters. */
                    fax?: string;
                    /** @description At most 255 characters. */
                    website?: string;
                    /** @description At most 255 characters. */
                    address_1?: string;
                    /** @description At most 255 characters. */
                    address_2?: string;
                    /** @description At most 100 characters. */
                    city?: string;
                    /** @description At most 2 characters. */
                    state?: string;
                    /** @description At most 16 characters. */
                    zip?: string;
                    /** @description At most 3 characters. */
                    country?: string;
                    /** @description Email a receipt for every charge. */
                    default_receipts?: boolean;
                    /** @description The template of this customer's receipts. */
                    default_receipt_template_id?: string;
                    /** @description Your own id for the customer: 6 to 64 letters, digits, _ or - (not "search"); random when absent. */
                    id?: string;
                    /** @description A one-time token: becomes the default method. */
                    token?: string;
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code (the same as cvv). */
                    csc?: string;
                    /** @description Security code of the token or card (verified, then forgotten). */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description At most 100 characters. */
                    first_name?: string;
                    /** @description At most 100 characters. */
                    last_name?: string;
                    /** @description At most 255 characters. */
                    company?: string;
                    /**
                     * Format: email
                     * @description At most 254 characters.
                     */
                    email?: string;
                    /** @description At most 32 characters. */
                    phone?: string;
                    /** @description At most 32 characters. */
                    fax?: string;
                    /** @description At most 255 characters. */
                    website?: string;
                    /** @description At most 255 characters. */
                    address_1?: string;
                    /** @description At most 255 characters. */
                    address_2?: string;
                    /** @description At most 100 characters. */
                    city?: string;
                    /** @description At most 2 characters. */
                    state?: string;
                    /** @description At most 16 characters. */
                    zip?: string;
                    /** @description At most 3 characters. */
                    country?: string;
                    /** @description Email a receipt for every charge. */
                    default_receipts?: boolean;
                    /** @description The template of this customer's receipts. */
                    default_receipt_template_id?: string;
                    /** @description Your own id for the customer: 6 to 64 letters, digits, _ or - (not "search"); random when absent. */
                    id?: string;
                    /** @description A one-time token: becomes the default method. */
                    token?: string;
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code (the same as cvv). */
                    csc?: string;
                    /** @description Security code of the token or card (verified, then forgotten). */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
                "multipart/form-data": {
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description At most 100 characters. */
                    first_name?: string;
                    /** @description At most 100 characters. */
                    last_name?: string;
                    /** @description At most 255 characters. */
                    company?: string;
                    /**
                     * Format: email
                     * @description At most 254 characters.
                     */
                    email?: string;
                    /** @description At most 32 characters. */
                    phone?: string;
                    /** @description At most 32 characters. */
                    fax?: string;
                    /** @description At most 255 characters. */
                    website?: string;
                    /** @description At most 255 characters. */
                    address_1?: string;
                    /** @description At most 255 characters. */
                    address_2?: string;
                    /** @description At most 100 characters. */
                    city?: string;
                    /** @description At most 2 characters. */
                    state?: string;
                    /** @description At most 16 characters. */
                    zip?: string;
                    /** @description At most 3 characters. */
                    country?: string;
                    /** @description Email a receipt for every charge. */
                    default_receipts?: boolean;
                    /** @description The template of this customer's receipts. */
                    default_receipt_template_id?: string;
                    /** @description Your own id for the customer: 6 to 64 letters, digits, _ or - (not "search"); random when absent. */
                    id?: string;
                    /** @description A one-time token: becomes the default method. */
                    token?: string;
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code (the same as cvv). */
                    csc?: string;
                    /** @description Security code of the token or card (verified, then forgotten). */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        company: string;
                        email: string;
                        phone: string;
                        fax: string;
                        website: string;
                        address_1: string;
                        address_2: string;
                        city: string;
                        state: string;
                        zip: string;
                        country: string;
                        metadata: {
                            [key: string]: unknown;
                        };
                        card_owner_name: string | null;
                        card_type: string;
                        last_4: string | null;
                        card_exp_month: number | null;
                        card_exp_year: number | null;
                        bank_account_number_last_4: string | null;
                        bank_routing_number: string | null;
                        bank_account_holder_first_name: string | null;
                        bank_account_holder_last_name: string | null;
                        bank_account_type: string | null;
                        default_receipts: boolean;
                        default_receipt_template_id: string | null;
                        default_method_id: string | null;
                        methods: {
                            /** @enum {string} */
                            class: "method" | "payment_method";
                            id: string;
                            customer_id: string;
                            /** @enum {string} */
                            method_type: "credit_card" | "bank_account";
                            card_owner_name: string | null;
                            card_exp_month: number | null;
                            card_exp_year: number | null;
                            bank_routing_number: string | null;
                            bank_account_holder_first_name: string | null;
                            bank_account_holder_last_name: string | null;
                            bank_account_type: string | null;
                            company: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            last_4: string | null;
                            card_type: string | null;
                            csc_check: string | null;
                            bank_account_number_last_4: string | null;
                            address: {
                                address_1: string | null;
                                address_2: string | null;
                                city: string | null;
                                state: string | null;
                                country: string | null;
                                zip: string | null;
                                company: string | null;
                            };
                        }[];
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `81602` fax too long; `81603` first name too long; `81604` last name too long; `81606` phone too long; `81607` website too long; `81609` customer email invalid or state not a two-character abbreviation; `69201` valid token required; `23489` token not found for merchant; `11112` invalid card number or improper format; `11301` invalid Visa card number; `11302` invalid Mastercard card number; `11303` invalid American Express card number; `11305` invalid Diners Club card number; `11306` invalid Discover card number; `91703` account cannot be verified; `234722` security code missing or invalid; `AVSZIP404` merchant requires zip for address verification; `TEST01` real card or account numbers cannot be used in test mode; use a test card */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `CPCVV1` issuer does not support CVV while merchant requires it; `CPCVV2` card verification code wrong; `82004` card verification failed */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `10300` receipt template not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `81608` custom id already taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `VAULT03` this node's data key (TESSERA_DATA_KEY) is not the one the cluster writes under (it was retired by tessera data-key reencrypt, or the cluster's key is not configured here); nothing was stored; retry, another node can take the request */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    delete_customers: {
        parameters: {
            query?: {
                /** @description The customer to delete (or id in the body). */
                id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `17001` customer not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_customers_search: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100 (default 10); the body's wins. */
                limit?: number;
                /** @description Rows to skip (default 0); the body's wins. */
                offset?: number;
            };
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Matches first and last name, company and id (case-insensitive). */
                    search_term: string;
                    /**
                     * @description Rows per page, 1 to 100 (default 10); or in the query string.
                     * @default 10
                     */
                    limit?: number;
                    /**
                     * @description Rows to skip (default 0); or in the query string.
                     * @default 0
                     */
                    offset?: number;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Matches first and last name, company and id (case-insensitive). */
                    search_term: string;
                    /**
                     * @description Rows per page, 1 to 100 (default 10); or in the query string.
                     * @default 10
                     */
                    limit?: number;
                    /**
                     * @description Rows to skip (default 0); or in the query string.
                     * @default 0
                     */
                    offset?: number;
                };
                "multipart/form-data": {
                    /** @description Matches first and last name, company and id (case-insensitive). */
                    search_term: string;
                    /**
                     * @description Rows per page, 1 to 100 (default 10); or in the query string.
                     * @default 10
                     */
                    limit?: number;
                    /**
                     * @description Rows to skip (default 0); or in the query string.
                     * @default 0
                     */
                    offset?: number;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            first_name: string;
                            last_name: string;
                            company: string;
                            email: string;
                            phone: string;
                            fax: string;
                            website: string;
                            address_1: string;
                            address_2: string;
                            city: string;
                            state: string;
                            zip: string;
                            country: string;
                            metadata: {
                                [key: string]: unknown;
                            };
                            card_owner_name: string | null;
                            card_type: string;
                            last_4: string | null;
                            card_exp_month: number | null;
                            card_exp_year: number | null;
                            bank_account_number_last_4: string | null;
                            bank_routing_number: string | null;
                            bank_account_holder_first_name: string | null;
                            bank_account_holder_last_name: string | null;
                            bank_account_type: string | null;
                            default_receipts: boolean;
                            default_receipt_template_id: string | null;
                            default_method_id: string | null;
                            methods: {
                                /** @enum {string} */
                                class: "method" | "payment_method";
                                id: string;
                                customer_id: string;
                                /** @enum {string} */
                                method_type: "credit_card" | "bank_account";
                                card_owner_name: string | null;
                                card_exp_month: number | null;
                                card_exp_year: number | null;
                                bank_routing_number: string | null;
                                bank_account_holder_first_name: string | null;
                                bank_account_holder_last_name: string | null;
                                bank_account_type: string | null;
                                company: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                                last_4: string | null;
                                card_type: string | null;
                                csc_check: string | null;
                                bank_account_number_last_4: string | null;
                                address: {
                                    address_1: string | null;
                                    address_2: string | null;
                                    city: string | null;
                                    state: string | null;
                                    country: string | null;
                                    zip: string | null;
                                    company: string | null;
                                };
                            }[];
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_customers_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        company: string;
                        email: string;
                        phone: string;
                        fax: string;
                        website: string;
                        address_1: string;
                        address_2: string;
                        city: string;
                        state: string;
                        zip: string;
                        country: string;
                        metadata: {
                            [key: string]: unknown;
                        };
                        card_owner_name: string | null;
                        card_type: string;
                        last_4: string | null;
                        card_exp_month: number | null;
                        card_exp_year: number | null;
                        bank_account_number_last_4: string | null;
                        bank_routing_number: string | null;
                        bank_account_holder_first_name: string | null;
                        bank_account_holder_last_name: string | null;
                        bank_account_type: string | null;
                        default_receipts: boolean;
                        default_receipt_template_id: string | null;
                        default_method_id: string | null;
                        methods: {
                            /** @enum {string} */
                            class: "method" | "payment_method";
                            id: string;
                            customer_id: string;
                            /** @enum {string} */
                            method_type: "credit_card" | "bank_account";
                            card_owner_name: string | null;
                            card_exp_month: number | null;
                            card_exp_year: number | null;
                            bank_routing_number: string | null;
                            bank_account_holder_first_name: string | null;
                            bank_account_holder_last_name: string | null;
                            bank_account_type: string | null;
                            company: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            last_4: string | null;
                            card_type: string | null;
                            csc_check: string | null;
                            bank_account_number_last_4: string | null;
                            address: {
                                address_1: string | null;
                                address_2: string | null;
                                city: string | null;
                                state: string | null;
                                country: string | null;
                                zip: string | null;
                                company: string | null;
                            };
                        }[];
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `17001` customer not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_customers_id: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description At most 100 characters. */
                    first_name?: string;
                    /** @description At most 100 characters. */
                    last_name?: string;
                    /** @description At most 255 characters. */
                    company?: string;
                    /**
                     * Format: email
                     * @description At most 254 characters.
                     */
                    email?: string;
                    /** @description At most 32 characters. */
                    phone?: string;
                    /** @description At most 32 characters. */
                    fax?: string;
                    /** @description At most 255 characters. */
                    website?: string;
                    /** @description At most 255 characters. */
                    address_1?: string;
                    /** @description At most 255 characters. */
                    address_2?: string;
                    /** @description At most 100 characters. */
                    city?: string;
                    /** @description At most 2 characters. */
                    state?: string;
                    /** @description At most 16 characters. */
                    zip?: string;
                    /** @description At most 3 characters. */
                    country?: string;
                    /** @description Email a receipt for every charge. */
                    default_receipts?: boolean;
                    /** @description The template of this customer's receipts. */
                    default_receipt_template_id?: string;
                    /** @description Which method a charge by customer uses. */
                    default_method_id?: string;
                    /** @description A one-time token: becomes the default method. */
                    token?: string;
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code (the same as cvv). */
                    csc?: string;
                    /** @description Security code of the token or card (verified, then forgotten). */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description At most 100 characters. */
                    first_name?: string;
                    /** @description At most 100 characters. */
                    last_name?: string;
                    /** @description At most 255 characters. */
                    company?: string;
                    /**
                     * Format: email
                     * @description At most 254 characters.
                     */
                    email?: string;
                    /** @description At most 32 characters. */
                    phone?: string;
                    /** @description At most 32 characters. */
                    fax?: string;
                    /** @description At most 255 characters. */
                    website?: string;
                    /** @description At most 255 characters. */
                    address_1?: string;
                    /** @description At most 255 characters. */
                    address_2?: string;
                    /** @description At most 100 characters. */
                    city?: string;
                    /** @description At most 2 characters. */
                    state?: string;
                    /** @description At most 16 characters. */
                    zip?: string;
                    /** @description At most 3 characters. */
                    country?: string;
                    /** @description Email a receipt for every charge. */
                    default_receipts?: boolean;
                    /** @description The template of this customer's receipts. */
                    default_receipt_template_id?: string;
                    /** @description Which method a charge by customer uses. */
                    default_method_id?: string;
                    /** @description A one-time token: becomes the default method. */
                    token?: string;
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code (the same as cvv). */
                    csc?: string;
                    /** @description Security code of the token or card (verified, then forgotten). */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
                "multipart/form-data": {
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description At most 100 characters. */
                    first_name?: string;
                    /** @description At most 100 characters. */
                    last_name?: string;
                    /** @description At most 255 characters. */
                    company?: string;
                    /**
                     * Format: email
                     * @description At most 254 characters.
                     */
                    email?: string;
                    /** @description At most 32 characters. */
                    phone?: string;
                    /** @description At most 32 characters. */
                    fax?: string;
                    /** @description At most 255 characters. */
                    website?: string;
                    /** @description At most 255 characters. */
                    address_1?: string;
                    /** @description At most 255 characters. */
                    address_2?: string;
                    /** @description At most 100 characters. */
                    city?: string;
                    /** @description At most 2 characters. */
                    state?: string;
                    /** @description At most 16 characters. */
                    zip?: string;
                    /** @description At most 3 characters. */
                    country?: string;
                    /** @description Email a receipt for every charge. */
                    default_receipts?: boolean;
                    /** @description The template of this customer's receipts. */
                    default_receipt_template_id?: string;
                    /** @description Which method a charge by customer uses. */
                    default_method_id?: string;
                    /** @description A one-time token: becomes the default method. */
                    token?: string;
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code (the same as cvv). */
                    csc?: string;
                    /** @description Security code of the token or card (verified, then forgotten). */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        company: string;
                        email: string;
                        phone: string;
                        fax: string;
                        website: string;
                        address_1: string;
                        address_2: string;
                        city: string;
                        state: string;
                        zip: string;
                        country: string;
                        metadata: {
                            [key: string]: unknown;
                        };
                        card_owner_name: string | null;
                        card_type: string;
                        last_4: string | null;
                        card_exp_month: number | null;
                        card_exp_year: number | null;
                        bank_account_number_last_4: string | null;
                        bank_routing_number: string | null;
                        bank_account_holder_first_name: string | null;
                        bank_account_holder_last_name: string | null;
                        bank_account_type: string | null;
                        default_receipts: boolean;
                        default_receipt_template_id: string | null;
                        default_method_id: string | null;
                        methods: {
                            /** @enum {string} */
                            class: "method" | "payment_method";
                            id: string;
                            customer_id: string;
                            /** @enum {string} */
                            method_type: "credit_card" | "bank_account";
                            card_owner_name: string | null;
                            card_exp_month: number | null;
                            card_exp_year: number | null;
                            bank_routing_number: string | null;
                            bank_account_holder_first_name: string | null;
                            bank_account_holder_last_name: string | null;
                            bank_account_type: string | null;
                            company: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            last_4: string | null;
                            card_type: string | null;
                            csc_check: string | null;
                            bank_account_number_last_4: string | null;
                            address: {
                                address_1: string | null;
                                address_2: string | null;
                                city: string | null;
                                state: string | null;
                                country: string | null;
                                zip: string | null;
                                company: string | null;
                            };
                        }[];
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `81602` fax too long; `81603` first name too long; `81604` last name too long; `81606` phone too long; `81607` website too long; `81609` customer email invalid or state not a two-character abbreviation; `69201` valid token required; `23489` token not found for merchant; `11112` invalid card number or improper format; `11301` invalid Visa card number; `11302` invalid Mastercard card number; `11303` invalid American Express card number; `11305` invalid Diners Club card number; `11306` invalid Discover card number; `91703` account cannot be verified; `234722` security code missing or invalid; `AVSZIP404` merchant requires zip for address verification; `TEST01` real card or account numbers cannot be used in test mode; use a test card */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `CPCVV1` issuer does not support CVV while merchant requires it; `CPCVV2` card verification code wrong; `82004` card verification failed */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `10300` receipt template not found; `17001` customer not found; `82002` method not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `VAULT03` this node's data key (TESSERA_DATA_KEY) is not the one the cluster writes under (it was retired by tessera data-key reencrypt, or the cluster's key is not configured here); nothing was stored; retry, another node can take the request */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    delete_customers_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `17001` customer not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_customers_customer_id_methods: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                        list: {
                            /** @enum {string} */
                            class: "method" | "payment_method";
                            id: string;
                            customer_id: string;
                            /** @enum {string} */
                            method_type: "credit_card" | "bank_account";
                            card_owner_name: string | null;
                            card_exp_month: number | null;
                            card_exp_year: number | null;
                            bank_routing_number: string | null;
                            bank_account_holder_first_name: string | null;
                            bank_account_holder_last_name: string | null;
                            bank_account_type: string | null;
                            company: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            last_4: string | null;
                            card_type: string | null;
                            csc_check: string | null;
                            bank_account_number_last_4: string | null;
                            address: {
                                address_1: string | null;
                                address_2: string | null;
                                city: string | null;
                                state: string | null;
                                country: string | null;
                                zip: string | null;
                                company: string | null;
                            };
                        }[];
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `17001` customer not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_customers_customer_id_methods: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description For address verification: wins over the token's billing zip. */
                    zip?: string;
                    /** @description credit_card or bank_account: must match the token (default: its type). */
                    method_type?: string;
                    /** @description A one-time token from the tokenizer. */
                    token?: string;
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code (the same as cvv). */
                    csc?: string;
                    /** @description Security code, verified now, then forgotten. */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description 3-letter ISO 3166 code (default USA). */
                    country?: string;
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description For address verification: wins over the token's billing zip. */
                    zip?: string;
                    /** @description credit_card or bank_account: must match the token (default: its type). */
                    method_type?: string;
                    /** @description A one-time token from the tokenizer. */
                    token?: string;
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code (the same as cvv). */
                    csc?: string;
                    /** @description Security code, verified now, then forgotten. */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description 3-letter ISO 3166 code (default USA). */
                    country?: string;
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
                "multipart/form-data": {
                    /** @description For address verification: wins over the token's billing zip. */
                    zip?: string;
                    /** @description credit_card or bank_account: must match the token (default: its type). */
                    method_type?: string;
                    /** @description A one-time token from the tokenizer. */
                    token?: string;
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code (the same as cvv). */
                    csc?: string;
                    /** @description Security code, verified now, then forgotten. */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description 3-letter ISO 3166 code (default USA). */
                    country?: string;
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                        method: {
                            /** @enum {string} */
                            class: "method" | "payment_method";
                            id: string;
                            customer_id: string;
                            /** @enum {string} */
                            method_type: "credit_card" | "bank_account";
                            card_owner_name: string | null;
                            card_exp_month: number | null;
                            card_exp_year: number | null;
                            bank_routing_number: string | null;
                            bank_account_holder_first_name: string | null;
                            bank_account_holder_last_name: string | null;
                            bank_account_type: string | null;
                            company: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            last_4: string | null;
                            card_type: string | null;
                            csc_check: string | null;
                            bank_account_number_last_4: string | null;
                            address: {
                                address_1: string | null;
                                address_2: string | null;
                                city: string | null;
                                state: string | null;
                                country: string | null;
                                zip: string | null;
                                company: string | null;
                            };
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `82001` method type not recognized; `69201` valid token required; `23489` token not found for merchant; `11112` invalid card number or improper format; `11301` invalid Visa card number; `11302` invalid Mastercard card number; `11303` invalid American Express card number; `11305` invalid Diners Club card number; `11306` invalid Discover card number; `91703` account cannot be verified; `234722` security code missing or invalid; `AVSZIP404` merchant requires zip for address verification; `TEST01` real card or account numbers cannot be used in test mode; use a test card */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `CPCVV1` issuer does not support CVV while merchant requires it; `CPCVV2` card verification code wrong; `82004` card verification failed */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `17001` customer not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `VAULT03` this node's data key (TESSERA_DATA_KEY) is not the one the cluster writes under (it was retired by tessera data-key reencrypt, or the cluster's key is not configured here); nothing was stored; retry, another node can take the request */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_customers_customer_id_methods_method_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                customer_id: string;
                method_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                        method: {
                            /** @enum {string} */
                            class: "method" | "payment_method";
                            id: string;
                            customer_id: string;
                            /** @enum {string} */
                            method_type: "credit_card" | "bank_account";
                            card_owner_name: string | null;
                            card_exp_month: number | null;
                            card_exp_year: number | null;
                            bank_routing_number: string | null;
                            bank_account_holder_first_name: string | null;
                            bank_account_holder_last_name: string | null;
                            bank_account_type: string | null;
                            company: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            last_4: string | null;
                            card_type: string | null;
                            csc_check: string | null;
                            bank_account_number_last_4: string | null;
                            address: {
                                address_1: string | null;
                                address_2: string | null;
                                city: string | null;
                                state: string | null;
                                country: string | null;
                                zip: string | null;
                                company: string | null;
                            };
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `17001` customer not found; `82002` method not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_customers_customer_id_methods_method_id: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                customer_id: string;
                method_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description For address verification: wins over the token's billing zip. */
                    zip?: string;
                    /** @description A one-time token from the tokenizer. */
                    token?: string;
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code (the same as cvv). */
                    csc?: string;
                    /** @description Security code, verified now, then forgotten. */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description 3-letter ISO 3166 code (default USA). */
                    country?: string;
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description For address verification: wins over the token's billing zip. */
                    zip?: string;
                    /** @description A one-time token from the tokenizer. */
                    token?: string;
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code (the same as cvv). */
                    csc?: string;
                    /** @description Security code, verified now, then forgotten. */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description 3-letter ISO 3166 code (default USA). */
                    country?: string;
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
                "multipart/form-data": {
                    /** @description For address verification: wins over the token's billing zip. */
                    zip?: string;
                    /** @description A one-time token from the tokenizer. */
                    token?: string;
                    /**
                     * @description credit_card (default) or bank_account.
                     * @enum {string}
                     */
                    token_type?: "credit_card" | "bank_account";
                    /** @description Name on the card. */
                    card_owner_name?: string;
                    /** @description The card number (test mode: a test card). */
                    card_number?: string;
                    /** @description 1 to 12. */
                    card_exp_month?: string;
                    /** @description Four digits (or two). */
                    card_exp_year?: string;
                    /** @description Security code (the same as cvv). */
                    csc?: string;
                    /** @description Security code, verified now, then forgotten. */
                    cvv?: string;
                    /** @description A bank account instead of a card. */
                    bank_account_number?: string;
                    /** @description ABA routing number, checksummed. */
                    bank_routing_number?: string;
                    /** @description Account holder's first name. */
                    bank_account_holder_first_name?: string;
                    /** @description Account holder's last name. */
                    bank_account_holder_last_name?: string;
                    /**
                     * @description checking or savings.
                     * @enum {string}
                     */
                    bank_account_type?: "checking" | "savings";
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description 3-letter ISO 3166 code (default USA). */
                    country?: string;
                    /** @description The amount the token is meant for, in cents (informational). */
                    amount?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                        method: {
                            /** @enum {string} */
                            class: "method" | "payment_method";
                            id: string;
                            customer_id: string;
                            /** @enum {string} */
                            method_type: "credit_card" | "bank_account";
                            card_owner_name: string | null;
                            card_exp_month: number | null;
                            card_exp_year: number | null;
                            bank_routing_number: string | null;
                            bank_account_holder_first_name: string | null;
                            bank_account_holder_last_name: string | null;
                            bank_account_type: string | null;
                            company: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            last_4: string | null;
                            card_type: string | null;
                            csc_check: string | null;
                            bank_account_number_last_4: string | null;
                            address: {
                                address_1: string | null;
                                address_2: string | null;
                                city: string | null;
                                state: string | null;
                                country: string | null;
                                zip: string | null;
                                company: string | null;
                            };
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `82001` method type not recognized; `23489` token not found for merchant; `11112` invalid card number or improper format; `11301` invalid Visa card number; `11302` invalid Mastercard card number; `11303` invalid American Express card number; `11305` invalid Diners Club card number; `11306` invalid Discover card number; `91703` account cannot be verified; `234722` security code missing or invalid; `AVSZIP404` merchant requires zip for address verification; `TEST01` real card or account numbers cannot be used in test mode; use a test card */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `CPCVV1` issuer does not support CVV while merchant requires it; `CPCVV2` card verification code wrong; `82004` card verification failed */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `17001` customer not found; `82002` method not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `VAULT03` this node's data key (TESSERA_DATA_KEY) is not the one the cluster writes under (it was retired by tessera data-key reencrypt, or the cluster's key is not configured here); nothing was stored; retry, another node can take the request */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    delete_customers_customer_id_methods_method_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                customer_id: string;
                method_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `17001` customer not found; `82002` method not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `82003` the default method cannot be deleted; `10208` method is in use by a subscription; `17104` method has unbilled scheduled payments; `18010` error while deleting the method */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_charge: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Charge this customer's stored method instead of a token. */
                    customer_id?: string;
                    /** @description A card sent directly instead of a token (cards only). */
                    card_number?: string;
                    /** @description A one-time token from the tokenizer. */
                    token?: string;
                    /** @description Which of the customer's methods (default: the customer's default method). */
                    method_id?: string;
                    /** @description true: the customer's default bank account; false: their default card. */
                    charge_bank_account?: boolean;
                    /** @description Cents, above zero (a form body sends it as text). */
                    amount: number;
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description At most 1000 characters. */
                    description?: string;
                    /** @description Email a receipt (true/false, "1"/"0"); default: the customer's or merchant's setting. */
                    send_receipt?: boolean;
                    /**
                     * Format: email
                     * @description Where the receipt goes.
                     */
                    email_address?: string;
                    /** @description The receipt template to use. */
                    receipt_template_id?: string;
                    /** @description Name on the card (optional here). */
                    card_owner_name?: string;
                    /** @description credit_card, if sent: a direct charge takes cards only (tokenize a bank account). */
                    token_type?: string;
                    /** @description MM */
                    card_exp_month?: string;
                    /** @description YYYY */
                    card_exp_year?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_account_number?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_routing_number?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_account_holder_first_name?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_account_holder_last_name?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_account_type?: string;
                    /** @description Security code (cvv is read the same). */
                    csc?: string;
                    /** @description Security code. */
                    cvv?: string;
                    /** @description Payer company. */
                    company?: string;
                    /** @description Payer website. */
                    website?: string;
                    /** @description Payer's email. */
                    email?: string;
                    /** @description Payer's first name. */
                    first_name?: string;
                    /** @description Payer's last name. */
                    last_name?: string;
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description For address verification. */
                    zip?: string;
                    /** @description Country. */
                    country?: string;
                    /** @description Payer's phone. */
                    phone?: string;
                    /** @description Payer's fax. */
                    fax?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Charge this customer's stored method instead of a token. */
                    customer_id?: string;
                    /** @description A card sent directly instead of a token (cards only). */
                    card_number?: string;
                    /** @description A one-time token from the tokenizer. */
                    token?: string;
                    /** @description Which of the customer's methods (default: the customer's default method). */
                    method_id?: string;
                    /** @description true: the customer's default bank account; false: their default card. */
                    charge_bank_account?: boolean;
                    /** @description Cents, above zero (a form body sends it as text). */
                    amount: number;
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description At most 1000 characters. */
                    description?: string;
                    /** @description Email a receipt (true/false, "1"/"0"); default: the customer's or merchant's setting. */
                    send_receipt?: boolean;
                    /**
                     * Format: email
                     * @description Where the receipt goes.
                     */
                    email_address?: string;
                    /** @description The receipt template to use. */
                    receipt_template_id?: string;
                    /** @description Name on the card (optional here). */
                    card_owner_name?: string;
                    /** @description credit_card, if sent: a direct charge takes cards only (tokenize a bank account). */
                    token_type?: string;
                    /** @description MM */
                    card_exp_month?: string;
                    /** @description YYYY */
                    card_exp_year?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_account_number?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_routing_number?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_account_holder_first_name?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_account_holder_last_name?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_account_type?: string;
                    /** @description Security code (cvv is read the same). */
                    csc?: string;
                    /** @description Security code. */
                    cvv?: string;
                    /** @description Payer company. */
                    company?: string;
                    /** @description Payer website. */
                    website?: string;
                    /** @description Payer's email. */
                    email?: string;
                    /** @description Payer's first name. */
                    first_name?: string;
                    /** @description Payer's last name. */
                    last_name?: string;
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description For address verification. */
                    zip?: string;
                    /** @description Country. */
                    country?: string;
                    /** @description Payer's phone. */
                    phone?: string;
                    /** @description Payer's fax. */
                    fax?: string;
                };
                "multipart/form-data": {
                    /** @description Charge this customer's stored method instead of a token. */
                    customer_id?: string;
                    /** @description A card sent directly instead of a token (cards only). */
                    card_number?: string;
                    /** @description A one-time token from the tokenizer. */
                    token?: string;
                    /** @description Which of the customer's methods (default: the customer's default method). */
                    method_id?: string;
                    /** @description true: the customer's default bank account; false: their default card. */
                    charge_bank_account?: boolean;
                    /** @description Cents, above zero (a form body sends it as text). */
                    amount: number;
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description At most 1000 characters. */
                    description?: string;
                    /** @description Email a receipt (true/false, "1"/"0"); default: the customer's or merchant's setting. */
                    send_receipt?: boolean;
                    /**
                     * Format: email
                     * @description Where the receipt goes.
                     */
                    email_address?: string;
                    /** @description The receipt template to use. */
                    receipt_template_id?: string;
                    /** @description Name on the card (optional here). */
                    card_owner_name?: string;
                    /** @description credit_card, if sent: a direct charge takes cards only (tokenize a bank account). */
                    token_type?: string;
                    /** @description MM */
                    card_exp_month?: string;
                    /** @description YYYY */
                    card_exp_year?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_account_number?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_routing_number?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_account_holder_first_name?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_account_holder_last_name?: string;
                    /** @description Refused on a direct charge: tokenize a bank account. */
                    bank_account_type?: string;
                    /** @description Security code (cvv is read the same). */
                    csc?: string;
                    /** @description Security code. */
                    cvv?: string;
                    /** @description Payer company. */
                    company?: string;
                    /** @description Payer website. */
                    website?: string;
                    /** @description Payer's email. */
                    email?: string;
                    /** @description Payer's first name. */
                    first_name?: string;
                    /** @description Payer's last name. */
                    last_name?: string;
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description For address verification. */
                    zip?: string;
                    /** @description Country. */
                    country?: string;
                    /** @description Payer's phone. */
                    phone?: string;
                    /** @description Payer's fax. */
                    fax?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        merchant_id: string;
                        /** @enum {string} */
                        payment_method: "credit_card" | "bank_account";
                        transaction_type: string;
                        /** @description SETTLED, AUTHORIZED, FAILED, VOIDED… */
                        status: string;
                        successful: boolean;
                        reference_number: string;
                        system_trace: string | null;
                        /** @description Cents. */
                        amount_authorized: number;
                        /** @description Cents. */
                        amount_settled: number;
                        /** @description Cents. */
                        amount_failed: number;
                        /** @description Cents. */
                        amount_refunded: number;
                        authorized: boolean;
                        settled: boolean;
                        refunded: boolean;
                        voided: boolean;
                        description: string | null;
                        card_owner_name: string | null;
                        customer_id: string | null;
                        csc_check: string;
                        avs_address_check: string | null;
                        source: string;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** @description The decline code of a failed charge. */
                        error_code: string | null;
                        error_message: string | null;
                        recurring: boolean;
                        company: string | null;
                        website: string | null;
                        email: string | null;
                        first_name: string | null;
                        last_name: string | null;
                        address_1: string | null;
                        address_2: string | null;
                        city: string | null;
                        state: string | null;
                        zip: string | null;
                        country: string | null;
                        phone: string | null;
                        fax: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        processed_at: string | null;
                        /** @description Empty for a bank-account charge. */
                        card_type: string;
                        /** @description Masked: the last four digits only (of the account number for a bank-account charge). */
                        card_number: string;
                        /** @description Empty for a bank-account charge. */
                        card_exp_month: string;
                        /** @description Empty for a bank-account charge. */
                        card_exp_year: string;
                        account_holder_name: string;
                        receipt: {
                            due: boolean;
                            email_address: string | null;
                            receipt_template_id: string | null;
                            receipt_id: number | null;
                        };
                        email_address: string | null;
                        refunds: {
                            id: string;
                            amount: number;
                            /**
                             * @description A live refund is pending until its processor answers.
                             * @enum {string}
                             */
                            status: "pending" | "succeeded" | "failed";
                            /**
                             * @description void: a live charge refunded whole before its processor settled it.
                             * @enum {string}
                             */
                            kind: "refund" | "void";
                            /** Format: date-time */
                            created_at: string;
                        }[];
                        /** @description Live charges: what the processor said (null in test mode). */
                        processor: null | {
                            connector: string;
                            /** @description The processor's own transaction id. */
                            transaction_id: string | null;
                            auth_code: string | null;
                            avs_result: string | null;
                            cvv_result: string | null;
                            response_code: string | null;
                            /** @description The processor's own text. */
                            message: string | null;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `69002` parameters missing (token, amount); `48291` parameters missing (customer_id, amount); `59112` amount must be a number of cents above zero; `99819` amount must be a positive number of cents; `69201` valid token required; `11112` invalid card number or improper format; `234722` security code missing or invalid; `AVSZIP404` merchant requires zip for address verification; `TEST01` real card or account numbers cannot be used in test mode; use a test card; `34798` valid customer_id required; `34792` payment token not found; `69005` email_address needed to send a receipt; `69006` receipt email address invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `99820` card declined; `CPCVV1` issuer does not support CVV while merchant requires it; `CPCVV2` card verification code wrong; `PROC03` the processor refused the charge as invalid; nothing was charged; `PROC04` the processor has no record of this charge: nothing was charged */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `17001` customer not found; `82002` method not found; `10300` receipt template not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body; `VAULT02` the stored payment data of this record fails its integrity check (altered, or copied from another record) and cannot be used; tokenize the card or account again */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `PROC02` the processor's answer did not arrive: the operation is pending and is resolved by asking the processor; do not charge again, read it back by its transaction id */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `VAULT01` stored payment data cannot be read with this node's data key (TESSERA_DATA_KEY, TESSERA_DATA_KEYS_RETIRED); nothing was changed, the operator must configure the key it was encrypted with; `PROC01` no payment processor is configured for live mode; live charges are refused */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_charge_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        merchant_id: string;
                        /** @enum {string} */
                        payment_method: "credit_card" | "bank_account";
                        transaction_type: string;
                        /** @description SETTLED, AUTHORIZED, FAILED, VOIDED… */
                        status: string;
                        successful: boolean;
                        reference_number: string;
                        system_trace: string | null;
                        /** @description Cents. */
                        amount_authorized: number;
                        /** @description Cents. */
                        amount_settled: number;
                        /** @description Cents. */
                        amount_failed: number;
                        /** @description Cents. */
                        amount_refunded: number;
                        authorized: boolean;
                        settled: boolean;
                        refunded: boolean;
                        voided: boolean;
                        description: string | null;
                        card_owner_name: string | null;
                        customer_id: string | null;
                        csc_check: string;
                        avs_address_check: string | null;
                        source: string;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** @description The decline code of a failed charge. */
                        error_code: string | null;
                        error_message: string | null;
                        recurring: boolean;
                        company: string | null;
                        website: string | null;
                        email: string | null;
                        first_name: string | null;
                        last_name: string | null;
                        address_1: string | null;
                        address_2: string | null;
                        city: string | null;
                        state: string | null;
                        zip: string | null;
                        country: string | null;
                        phone: string | null;
                        fax: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        processed_at: string | null;
                        /** @description Empty for a bank-account charge. */
                        card_type: string;
                        /** @description Masked: the last four digits only (of the account number for a bank-account charge). */
                        card_number: string;
                        /** @description Empty for a bank-account charge. */
                        card_exp_month: string;
                        /** @description Empty for a bank-account charge. */
                        card_exp_year: string;
                        account_holder_name: string;
                        receipt: {
                            due: boolean;
                            email_address: string | null;
                            receipt_template_id: string | null;
                            receipt_id: number | null;
                        };
                        email_address: string | null;
                        refunds: {
                            id: string;
                            amount: number;
                            /**
                             * @description A live refund is pending until its processor answers.
                             * @enum {string}
                             */
                            status: "pending" | "succeeded" | "failed";
                            /**
                             * @description void: a live charge refunded whole before its processor settled it.
                             * @enum {string}
                             */
                            kind: "refund" | "void";
                            /** Format: date-time */
                            created_at: string;
                        }[];
                        /** @description Live charges: what the processor said (null in test mode). */
                        processor: null | {
                            connector: string;
                            /** @description The processor's own transaction id. */
                            transaction_id: string | null;
                            auth_code: string | null;
                            avs_result: string | null;
                            cvv_result: string | null;
                            response_code: string | null;
                            /** @description The processor's own text. */
                            message: string | null;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `69404` charge not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_charge_id_cancel: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Cents to refund (default: what remains). */
                    amount?: number;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Cents to refund (default: what remains). */
                    amount?: number;
                };
                "multipart/form-data": {
                    /** @description Cents to refund (default: what remains). */
                    amount?: number;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        merchant_id: string;
                        /** @enum {string} */
                        payment_method: "credit_card" | "bank_account";
                        transaction_type: string;
                        /** @description SETTLED, AUTHORIZED, FAILED, VOIDED… */
                        status: string;
                        successful: boolean;
                        reference_number: string;
                        system_trace: string | null;
                        /** @description Cents. */
                        amount_authorized: number;
                        /** @description Cents. */
                        amount_settled: number;
                        /** @description Cents. */
                        amount_failed: number;
                        /** @description Cents. */
                        amount_refunded: number;
                        authorized: boolean;
                        settled: boolean;
                        refunded: boolean;
                        voided: boolean;
                        description: string | null;
                        card_owner_name: string | null;
                        customer_id: string | null;
                        csc_check: string;
                        avs_address_check: string | null;
                        source: string;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** @description The decline code of a failed charge. */
                        error_code: string | null;
                        error_message: string | null;
                        recurring: boolean;
                        company: string | null;
                        website: string | null;
                        email: string | null;
                        first_name: string | null;
                        last_name: string | null;
                        address_1: string | null;
                        address_2: string | null;
                        city: string | null;
                        state: string | null;
                        zip: string | null;
                        country: string | null;
                        phone: string | null;
                        fax: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        processed_at: string | null;
                        /** @description Empty for a bank-account charge. */
                        card_type: string;
                        /** @description Masked: the last four digits only (of the account number for a bank-account charge). */
                        card_number: string;
                        /** @description Empty for a bank-account charge. */
                        card_exp_month: string;
                        /** @description Empty for a bank-account charge. */
                        card_exp_year: string;
                        account_holder_name: string;
                        receipt: {
                            due: boolean;
                            email_address: string | null;
                            receipt_template_id: string | null;
                            receipt_id: number | null;
                        };
                        email_address: string | null;
                        refunds: {
                            id: string;
                            amount: number;
                            /**
                             * @description A live refund is pending until its processor answers.
                             * @enum {string}
                             */
                            status: "pending" | "succeeded" | "failed";
                            /**
                             * @description void: a live charge refunded whole before its processor settled it.
                             * @enum {string}
                             */
                            kind: "refund" | "void";
                            /** Format: date-time */
                            created_at: string;
                        }[];
                        /** @description Live charges: what the processor said (null in test mode). */
                        processor: null | {
                            connector: string;
                            /** @description The processor's own transaction id. */
                            transaction_id: string | null;
                            auth_code: string | null;
                            avs_result: string | null;
                            cvv_result: string | null;
                            response_code: string | null;
                            /** @description The processor's own text. */
                            message: string | null;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `REFUND01` refund amount exceeds the amount settled minus the amount already refunded; `59112` amount must be a number of cents above zero */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REFUND04` the processor refused the refund */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `69404` charge not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `REFUND02` only a settled, successful charge can be refunded; `REFUND03` the processor has not settled this charge yet: refund it whole (a void) now, or part of it after settlement */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `PROC02` the processor's answer did not arrive: the operation is pending and is resolved by asking the processor; do not charge again, read it back by its transaction id */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `PROC01` no payment processor is configured for live mode; live charges are refused */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_transactions: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: string;
                            merchant_id: string;
                            /** @enum {string} */
                            payment_method: "credit_card" | "bank_account";
                            transaction_type: string;
                            /** @description SETTLED, AUTHORIZED, FAILED, VOIDED… */
                            status: string;
                            successful: boolean;
                            reference_number: string;
                            system_trace: string | null;
                            /** @description Cents. */
                            amount_authorized: number;
                            /** @description Cents. */
                            amount_settled: number;
                            /** @description Cents. */
                            amount_failed: number;
                            /** @description Cents. */
                            amount_refunded: number;
                            authorized: boolean;
                            settled: boolean;
                            refunded: boolean;
                            voided: boolean;
                            description: string | null;
                            card_owner_name: string | null;
                            customer_id: string | null;
                            csc_check: string;
                            avs_address_check: string | null;
                            source: string;
                            metadata: {
                                [key: string]: unknown;
                            };
                            /** @description The decline code of a failed charge. */
                            error_code: string | null;
                            error_message: string | null;
                            recurring: boolean;
                            company: string | null;
                            website: string | null;
                            email: string | null;
                            first_name: string | null;
                            last_name: string | null;
                            address_1: string | null;
                            address_2: string | null;
                            city: string | null;
                            state: string | null;
                            zip: string | null;
                            country: string | null;
                            phone: string | null;
                            fax: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            processed_at: string | null;
                            /** @description Empty for a bank-account charge. */
                            card_type: string;
                            /** @description Masked: the last four digits only (of the account number for a bank-account charge). */
                            card_number: string;
                            /** @description Empty for a bank-account charge. */
                            card_exp_month: string;
                            /** @description Empty for a bank-account charge. */
                            card_exp_year: string;
                            account_holder_name: string;
                            receipt: {
                                due: boolean;
                                email_address: string | null;
                                receipt_template_id: string | null;
                                receipt_id: number | null;
                            };
                            email_address: string | null;
                            refunds: {
                                id: string;
                                amount: number;
                                /**
                                 * @description A live refund is pending until its processor answers.
                                 * @enum {string}
                                 */
                                status: "pending" | "succeeded" | "failed";
                                /**
                                 * @description void: a live charge refunded whole before its processor settled it.
                                 * @enum {string}
                                 */
                                kind: "refund" | "void";
                                /** Format: date-time */
                                created_at: string;
                            }[];
                            /** @description Live charges: what the processor said (null in test mode). */
                            processor: null | {
                                connector: string;
                                /** @description The processor's own transaction id. */
                                transaction_id: string | null;
                                auth_code: string | null;
                                avs_result: string | null;
                                cvv_result: string | null;
                                response_code: string | null;
                                /** @description The processor's own text. */
                                message: string | null;
                            };
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_settings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        /** @enum {string} */
                        env: "test" | "live";
                        /**
                         * @description Refuse cards without a matching CVV (spec 4.1).
                         * @default false
                         */
                        cvv_check: boolean;
                        /**
                         * @description Refuse cards without a matching zip (spec 4.1).
                         * @default false
                         */
                        zip_check: boolean;
                        /**
                         * @description Email a receipt for every charge unless it says otherwise.
                         * @default false
                         */
                        default_receipts: boolean;
                        /** @default null */
                        default_receipt_template_id: string | null;
                        /**
                         * @description The origins of the checkout pages (scheme://host[:port]): the only pages that may frame the hosted card fields (in test mode, with none set, any page may), and whose card refusals are counted apart from those of any other page.
                         * @default []
                         */
                        allowed_origins: string[];
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_settings: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Require a matching CVV. true/false (also "1"/"0"). */
                    cvv_check?: boolean;
                    /** @description Require a matching zip. true/false (also "1"/"0"). */
                    zip_check?: boolean;
                    /** @description Receipts by default. true/false (also "1"/"0"). */
                    default_receipts?: boolean;
                    /** @description A template of this environment; empty or null clears it. */
                    default_receipt_template_id?: string | null;
                    /** @description Replaces the list: up to 20 origins such as https://shop.example (no path; http only for localhost in live mode), as an array or one string separated by commas; [] or null clears it. */
                    allowed_origins?: string[] | string | null;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Require a matching CVV. true/false (also "1"/"0"). */
                    cvv_check?: boolean;
                    /** @description Require a matching zip. true/false (also "1"/"0"). */
                    zip_check?: boolean;
                    /** @description Receipts by default. true/false (also "1"/"0"). */
                    default_receipts?: boolean;
                    /** @description A template of this environment; empty or null clears it. */
                    default_receipt_template_id?: string | null;
                    /** @description Replaces the list: up to 20 origins such as https://shop.example (no path; http only for localhost in live mode), as an array or one string separated by commas; [] or null clears it. */
                    allowed_origins?: string[] | string | null;
                };
                "multipart/form-data": {
                    /** @description Require a matching CVV. true/false (also "1"/"0"). */
                    cvv_check?: boolean;
                    /** @description Require a matching zip. true/false (also "1"/"0"). */
                    zip_check?: boolean;
                    /** @description Receipts by default. true/false (also "1"/"0"). */
                    default_receipts?: boolean;
                    /** @description A template of this environment; empty or null clears it. */
                    default_receipt_template_id?: string | null;
                    /** @description Replaces the list: up to 20 origins such as https://shop.example (no path; http only for localhost in live mode), as an array or one string separated by commas; [] or null clears it. */
                    allowed_origins?: string[] | string | null;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        /** @enum {string} */
                        env: "test" | "live";
                        /**
                         * @description Refuse cards without a matching CVV (spec 4.1).
                         * @default false
                         */
                        cvv_check: boolean;
                        /**
                         * @description Refuse cards without a matching zip (spec 4.1).
                         * @default false
                         */
                        zip_check: boolean;
                        /**
                         * @description Email a receipt for every charge unless it says otherwise.
                         * @default false
                         */
                        default_receipts: boolean;
                        /** @default null */
                        default_receipt_template_id: string | null;
                        /**
                         * @description The origins of the checkout pages (scheme://host[:port]): the only pages that may frame the hosted card fields (in test mode, with none set, any page may), and whose card refusals are counted apart from those of any other page.
                         * @default []
                         */
                        allowed_origins: string[];
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `10300` receipt template not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_test_helpers_reset: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class?: string;
                        env?: string;
                        merchant_id?: string;
                        deleted?: {
                            [key: string]: number;
                        };
                        settings?: string;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server; `TEST02` test helpers (such as the reset) work only with a test private key; live data can never be wiped */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `TEST03` a reset of this test environment is under way; retry when it has finished */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_test_helpers_settle: {
        parameters: {
            query?: {
                /** @description 0 to 60000 milliseconds (default 10000); the body's wins. */
                timeout_ms?: number;
            };
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description 0 to 60000 milliseconds (default 10000). */
                    timeout_ms?: number;
                };
                "application/x-www-form-urlencoded": {
                    /** @description 0 to 60000 milliseconds (default 10000). */
                    timeout_ms?: number;
                };
                "multipart/form-data": {
                    /** @description 0 to 60000 milliseconds (default 10000). */
                    timeout_ms?: number;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class?: string;
                        env?: string;
                        merchant_id?: string;
                        settled?: boolean;
                        took_ms?: number;
                        webhooks?: {
                            delivered?: number;
                            failed?: number;
                            pending_retry?: number;
                            pending?: number;
                        };
                        callbacks?: {
                            delivered?: number;
                            failed?: number;
                            pending_retry?: number;
                            pending?: number;
                        };
                        emails?: {
                            delivered?: number;
                            failed?: number;
                            pending_retry?: number;
                            pending?: number;
                            queued?: number;
                        };
                        sms?: {
                            delivered?: number;
                            failed?: number;
                            pending_retry?: number;
                            pending?: number;
                            queued?: number;
                        };
                        scheduled?: {
                            due?: number;
                            errors?: number;
                            advancing?: boolean;
                        };
                        events?: {
                            undispatched?: number;
                        };
                        /** Format: date-time */
                        next_retry_at?: string | null;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server; `TEST02` test helpers (such as the reset) work only with a test private key; live data can never be wiped */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_receipts_templates: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: number;
                            name: string | null;
                            subject: string | null;
                            receipt_text: string;
                            merchant_id: number;
                            /** @description ISO 8601 with `+00:00`. */
                            created_at: string;
                            /** @description ISO 8601 with `+00:00`. */
                            updated_at: string;
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_receipts_templates: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Required on create (10302), never blank; the text with its {{placeholders}}, at most 20000 characters. */
                    receipt_text: string;
                    /** @description Blank clears it. */
                    name?: string;
                    /** @description Blank clears it. */
                    subject?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Required on create (10302), never blank; the text with its {{placeholders}}, at most 20000 characters. */
                    receipt_text: string;
                    /** @description Blank clears it. */
                    name?: string;
                    /** @description Blank clears it. */
                    subject?: string;
                };
                "multipart/form-data": {
                    /** @description Required on create (10302), never blank; the text with its {{placeholders}}, at most 20000 characters. */
                    receipt_text: string;
                    /** @description Blank clears it. */
                    name?: string;
                    /** @description Blank clears it. */
                    subject?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        name: string | null;
                        subject: string | null;
                        receipt_text: string;
                        merchant_id: number;
                        /** @description ISO 8601 with `+00:00`. */
                        created_at: string;
                        /** @description ISO 8601 with `+00:00`. */
                        updated_at: string;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `10302` required field missing (phone_number for SMS receipts, receipt_text for templates) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_receipts_templates_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        name: string | null;
                        subject: string | null;
                        receipt_text: string;
                        merchant_id: number;
                        /** @description ISO 8601 with `+00:00`. */
                        created_at: string;
                        /** @description ISO 8601 with `+00:00`. */
                        updated_at: string;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `10300` receipt template not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_receipts_templates_id: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Required on create (10302), never blank; the text with its {{placeholders}}, at most 20000 characters. */
                    receipt_text?: string;
                    /** @description Blank clears it. */
                    name?: string;
                    /** @description Blank clears it. */
                    subject?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Required on create (10302), never blank; the text with its {{placeholders}}, at most 20000 characters. */
                    receipt_text?: string;
                    /** @description Blank clears it. */
                    name?: string;
                    /** @description Blank clears it. */
                    subject?: string;
                };
                "multipart/form-data": {
                    /** @description Required on create (10302), never blank; the text with its {{placeholders}}, at most 20000 characters. */
                    receipt_text?: string;
                    /** @description Blank clears it. */
                    name?: string;
                    /** @description Blank clears it. */
                    subject?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        name: string | null;
                        subject: string | null;
                        receipt_text: string;
                        merchant_id: number;
                        /** @description ISO 8601 with `+00:00`. */
                        created_at: string;
                        /** @description ISO 8601 with `+00:00`. */
                        updated_at: string;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `10302` required field missing (phone_number for SMS receipts, receipt_text for templates) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `10300` receipt template not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    delete_receipts_templates_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `10300` receipt template not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_charge_id_receipt: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description email (default) or sms.
                     * @enum {string}
                     */
                    receipt_type?: "email" | "sms";
                    /**
                     * Format: email
                     * @description Default: the charge's customer's email.
                     */
                    email_address?: string;
                    /** @description For an SMS receipt: 7 to 15 digits, optionally with a leading +. */
                    phone_number?: string;
                    /** @description The template to render. */
                    receipt_template_id?: string;
                };
                "application/x-www-form-urlencoded": {
                    /**
                     * @description email (default) or sms.
                     * @enum {string}
                     */
                    receipt_type?: "email" | "sms";
                    /**
                     * Format: email
                     * @description Default: the charge's customer's email.
                     */
                    email_address?: string;
                    /** @description For an SMS receipt: 7 to 15 digits, optionally with a leading +. */
                    phone_number?: string;
                    /** @description The template to render. */
                    receipt_template_id?: string;
                };
                "multipart/form-data": {
                    /**
                     * @description email (default) or sms.
                     * @enum {string}
                     */
                    receipt_type?: "email" | "sms";
                    /**
                     * Format: email
                     * @description Default: the charge's customer's email.
                     */
                    email_address?: string;
                    /** @description For an SMS receipt: 7 to 15 digits, optionally with a leading +. */
                    phone_number?: string;
                    /** @description The template to render. */
                    receipt_template_id?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        merchant_id: string;
                        transaction_id: string;
                        /** @enum {string} */
                        receipt_type: "email" | "sms";
                        email_address: string | null;
                        phone_number: string | null;
                        receipt_template_id: string | null;
                        subject: string | null;
                        receipt_text: string;
                        /** @description ISO 8601 with `+00:00`. */
                        created_at: string;
                        delivery: {
                            status: string;
                            attempts: number;
                            sent_at: string | null;
                            last_error: string | null;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `69005` email_address needed to send a receipt; `69006` receipt email address invalid; `10302` required field missing (phone_number for SMS receipts, receipt_text for templates) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `69404` charge not found; `10300` receipt template not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_receipts_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        merchant_id: string;
                        transaction_id: string;
                        /** @enum {string} */
                        receipt_type: "email" | "sms";
                        email_address: string | null;
                        phone_number: string | null;
                        receipt_template_id: string | null;
                        subject: string | null;
                        receipt_text: string;
                        /** @description ISO 8601 with `+00:00`. */
                        created_at: string;
                        delivery: {
                            status: string;
                            attempts: number;
                            sent_at: string | null;
                            last_error: string | null;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `RCPT01` receipt not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_outbox: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
                /** @description Only messages in this state. */
                status?: "pending" | "sent" | "failed" | "captured";
                /** @description email or sms. */
                kind?: "email" | "sms";
                /** @description Only messages about this record, e.g. receipt:1 or invoice:inv_… */
                source?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: number;
                            /** @enum {string} */
                            kind: "email" | "sms";
                            source: string | null;
                            /**
                             * @description captured: a test-mode message kept here and never sent (TESSERA_TEST_DELIVERY_TO names the test recipients that are sent to).
                             * @enum {string}
                             */
                            status: "pending" | "sent" | "failed" | "captured";
                            attempts: number;
                            last_error: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            sent_at: string | null;
                            to: string;
                            subject: string | null;
                            text: string;
                            html: string | null;
                            from_name: string | null;
                            /** Format: date-time */
                            next_attempt_at: string | null;
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_outbox_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        /** @enum {string} */
                        kind: "email" | "sms";
                        source: string | null;
                        /**
                         * @description captured: a test-mode message kept here and never sent (TESSERA_TEST_DELIVERY_TO names the test recipients that are sent to).
                         * @enum {string}
                         */
                        status: "pending" | "sent" | "failed" | "captured";
                        attempts: number;
                        last_error: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        sent_at: string | null;
                        to: string;
                        subject: string | null;
                        text: string;
                        html: string | null;
                        from_name: string | null;
                        /** Format: date-time */
                        next_attempt_at: string | null;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `OUTBOX01` outbox message not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_outbox_id_retry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        /** @enum {string} */
                        kind: "email" | "sms";
                        source: string | null;
                        /**
                         * @description captured: a test-mode message kept here and never sent (TESSERA_TEST_DELIVERY_TO names the test recipients that are sent to).
                         * @enum {string}
                         */
                        status: "pending" | "sent" | "failed" | "captured";
                        attempts: number;
                        last_error: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        sent_at: string | null;
                        to: string;
                        subject: string | null;
                        text: string;
                        html: string | null;
                        from_name: string | null;
                        /** Format: date-time */
                        next_attempt_at: string | null;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `OUTBOX01` outbox message not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `OUTBOX02` this message was sent already; only pending or failed messages can be queued again */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_webhooks_event_types: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        resources: {
                            resource: string;
                            event_types: string[];
                        }[];
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_events: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
                /** @description Only events of this type. */
                type?: string;
                /** @description Only events of this resource. */
                resource?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: string;
                            resource: string;
                            type: string;
                            /** @description The resource as the API shows it. */
                            data: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            dispatched_at: string | null;
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_events_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        resource: string;
                        type: string;
                        /** @description The resource as the API shows it. */
                        data: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        dispatched_at: string | null;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `EVENT01` event not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_webhooks_rules: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: string;
                            event_resource: string;
                            event_types: string[];
                            constraints: {
                                field: string;
                                operator: string;
                                value: (string | number | boolean) | (string | number | boolean)[];
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            strategies: string[];
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_webhooks_rules: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description GET /webhooks/event_types lists them. */
                    event_resource: string;
                    /** @description Full event type names or their suffixes (none: every type of the resource), a list, a JSON-encoded one or comma-separated. */
                    event_types?: string[] | string;
                    /** @description Conditions on the event data, a list or a JSON-encoded one. */
                    constraints?: {
                        field?: string;
                        operator?: string;
                        value?: unknown;
                    }[] | string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description GET /webhooks/event_types lists them. */
                    event_resource: string;
                    /** @description Full event type names or their suffixes (none: every type of the resource), a list, a JSON-encoded one or comma-separated. */
                    event_types?: string[] | string;
                    /** @description Conditions on the event data, a list or a JSON-encoded one. */
                    constraints?: {
                        field?: string;
                        operator?: string;
                        value?: unknown;
                    }[] | string;
                };
                "multipart/form-data": {
                    /** @description GET /webhooks/event_types lists them. */
                    event_resource: string;
                    /** @description Full event type names or their suffixes (none: every type of the resource), a list, a JSON-encoded one or comma-separated. */
                    event_types?: string[] | string;
                    /** @description Conditions on the event data, a list or a JSON-encoded one. */
                    constraints?: {
                        field?: string;
                        operator?: string;
                        value?: unknown;
                    }[] | string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        event_resource: string;
                        event_types: string[];
                        constraints: {
                            field: string;
                            operator: string;
                            value: (string | number | boolean) | (string | number | boolean)[];
                        }[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        strategies: string[];
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `WEBHOOK01` unknown event_resource or event type; GET /webhooks/event_types lists them */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_webhooks_rules_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        event_resource: string;
                        event_types: string[];
                        constraints: {
                            field: string;
                            operator: string;
                            value: (string | number | boolean) | (string | number | boolean)[];
                        }[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        strategies: string[];
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `100001` rule not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    put_webhooks_rules_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description GET /webhooks/event_types lists them. */
                    event_resource?: string;
                    /** @description Full event type names or their suffixes (none: every type of the resource), a list, a JSON-encoded one or comma-separated. */
                    event_types?: string[] | string;
                    /** @description Conditions on the event data, a list or a JSON-encoded one. */
                    constraints?: {
                        field?: string;
                        operator?: string;
                        value?: unknown;
                    }[] | string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description GET /webhooks/event_types lists them. */
                    event_resource?: string;
                    /** @description Full event type names or their suffixes (none: every type of the resource), a list, a JSON-encoded one or comma-separated. */
                    event_types?: string[] | string;
                    /** @description Conditions on the event data, a list or a JSON-encoded one. */
                    constraints?: {
                        field?: string;
                        operator?: string;
                        value?: unknown;
                    }[] | string;
                };
                "multipart/form-data": {
                    /** @description GET /webhooks/event_types lists them. */
                    event_resource?: string;
                    /** @description Full event type names or their suffixes (none: every type of the resource), a list, a JSON-encoded one or comma-separated. */
                    event_types?: string[] | string;
                    /** @description Conditions on the event data, a list or a JSON-encoded one. */
                    constraints?: {
                        field?: string;
                        operator?: string;
                        value?: unknown;
                    }[] | string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        event_resource: string;
                        event_types: string[];
                        constraints: {
                            field: string;
                            operator: string;
                            value: (string | number | boolean) | (string | number | boolean)[];
                        }[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        strategies: string[];
                    };
                };
            };
            /** @description `REQ01` invalid request; `WEBHOOK01` unknown event_resource or event type; GET /webhooks/event_types lists them */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `100001` rule not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    delete_webhooks_rules_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `100001` rule not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    put_webhooks_rule_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description GET /webhooks/event_types lists them. */
                    event_resource?: string;
                    /** @description Full event type names or their suffixes (none: every type of the resource), a list, a JSON-encoded one or comma-separated. */
                    event_types?: string[] | string;
                    /** @description Conditions on the event data, a list or a JSON-encoded one. */
                    constraints?: {
                        field?: string;
                        operator?: string;
                        value?: unknown;
                    }[] | string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description GET /webhooks/event_types lists them. */
                    event_resource?: string;
                    /** @description Full event type names or their suffixes (none: every type of the resource), a list, a JSON-encoded one or comma-separated. */
                    event_types?: string[] | string;
                    /** @description Conditions on the event data, a list or a JSON-encoded one. */
                    constraints?: {
                        field?: string;
                        operator?: string;
                        value?: unknown;
                    }[] | string;
                };
                "multipart/form-data": {
                    /** @description GET /webhooks/event_types lists them. */
                    event_resource?: string;
                    /** @description Full event type names or their suffixes (none: every type of the resource), a list, a JSON-encoded one or comma-separated. */
                    event_types?: string[] | string;
                    /** @description Conditions on the event data, a list or a JSON-encoded one. */
                    constraints?: {
                        field?: string;
                        operator?: string;
                        value?: unknown;
                    }[] | string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        event_resource: string;
                        event_types: string[];
                        constraints: {
                            field: string;
                            operator: string;
                            value: (string | number | boolean) | (string | number | boolean)[];
                        }[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        strategies: string[];
                    };
                };
            };
            /** @description `REQ01` invalid request; `WEBHOOK01` unknown event_resource or event type; GET /webhooks/event_types lists them */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `100001` rule not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_webhooks_rules_rule_id_strategies: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                rule_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The strategy to relate. */
                    strategy_id: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description The strategy to relate. */
                    strategy_id: string;
                };
                "multipart/form-data": {
                    /** @description The strategy to relate. */
                    strategy_id: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        rule_id: string;
                        strategy_id: string;
                        /** Format: date-time */
                        created_at: string;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `100001` rule not found; `200007` strategy not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    delete_webhooks_rules_rule_id_strategies_strategy_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                rule_id: string;
                strategy_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `100001` rule not found; `200007` strategy not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_webhooks_strategies: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: string;
                            /** @enum {string} */
                            mode: "webhook" | "email" | "sms";
                            url: string | null;
                            email_address: string | null;
                            phone_number: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            rules: string[];
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_webhooks_strategies: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description webhook, email or sms.
                     * @enum {string}
                     */
                    mode: "webhook" | "email" | "sms";
                    /** @description webhook: a public http(s) URL (https in live mode), at most 2048 characters. */
                    url?: string;
                    /**
                     * Format: email
                     * @description email: where the message goes.
                     */
                    email_address?: string;
                    /**
                     * Format: email
                     * @description email: read when email_address is not sent.
                     */
                    email?: string;
                    /** @description sms: 7 to 15 digits, optionally with a leading +. */
                    phone_number?: string;
                    /** @description sms: read when phone_number is not sent. */
                    phone?: string;
                };
                "application/x-www-form-urlencoded": {
                    /**
                     * @description webhook, email or sms.
                     * @enum {string}
                     */
                    mode: "webhook" | "email" | "sms";
                    /** @description webhook: a public http(s) URL (https in live mode), at most 2048 characters. */
                    url?: string;
                    /**
                     * Format: email
                     * @description email: where the message goes.
                     */
                    email_address?: string;
                    /**
                     * Format: email
                     * @description email: read when email_address is not sent.
                     */
                    email?: string;
                    /** @description sms: 7 to 15 digits, optionally with a leading +. */
                    phone_number?: string;
                    /** @description sms: read when phone_number is not sent. */
                    phone?: string;
                };
                "multipart/form-data": {
                    /**
                     * @description webhook, email or sms.
                     * @enum {string}
                     */
                    mode: "webhook" | "email" | "sms";
                    /** @description webhook: a public http(s) URL (https in live mode), at most 2048 characters. */
                    url?: string;
                    /**
                     * Format: email
                     * @description email: where the message goes.
                     */
                    email_address?: string;
                    /**
                     * Format: email
                     * @description email: read when email_address is not sent.
                     */
                    email?: string;
                    /** @description sms: 7 to 15 digits, optionally with a leading +. */
                    phone_number?: string;
                    /** @description sms: read when phone_number is not sent. */
                    phone?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** @enum {string} */
                        mode: "webhook" | "email" | "sms";
                        url: string | null;
                        email_address: string | null;
                        phone_number: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        rules: string[];
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `URL01` the URL names a host that is not public (loopback, private, link-local or reserved address); Tessera calls public addresses only, loopback too in test mode on a development gateway (tessera serve --dev) or the QA kit, and what the gateway operator allows */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_webhooks_strategies_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** @enum {string} */
                        mode: "webhook" | "email" | "sms";
                        url: string | null;
                        email_address: string | null;
                        phone_number: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        rules: string[];
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `200007` strategy not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    put_webhooks_strategies_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description webhook, email or sms.
                     * @enum {string}
                     */
                    mode?: "webhook" | "email" | "sms";
                    /** @description webhook: a public http(s) URL (https in live mode), at most 2048 characters. */
                    url?: string;
                    /**
                     * Format: email
                     * @description email: where the message goes.
                     */
                    email_address?: string;
                    /**
                     * Format: email
                     * @description email: read when email_address is not sent.
                     */
                    email?: string;
                    /** @description sms: 7 to 15 digits, optionally with a leading +. */
                    phone_number?: string;
                    /** @description sms: read when phone_number is not sent. */
                    phone?: string;
                };
                "application/x-www-form-urlencoded": {
                    /**
                     * @description webhook, email or sms.
                     * @enum {string}
                     */
                    mode?: "webhook" | "email" | "sms";
                    /** @description webhook: a public http(s) URL (https in live mode), at most 2048 characters. */
                    url?: string;
                    /**
                     * Format: email
                     * @description email: where the message goes.
                     */
                    email_address?: string;
                    /**
                     * Format: email
                     * @description email: read when email_address is not sent.
                     */
                    email?: string;
                    /** @description sms: 7 to 15 digits, optionally with a leading +. */
                    phone_number?: string;
                    /** @description sms: read when phone_number is not sent. */
                    phone?: string;
                };
                "multipart/form-data": {
                    /**
                     * @description webhook, email or sms.
                     * @enum {string}
                     */
                    mode?: "webhook" | "email" | "sms";
                    /** @description webhook: a public http(s) URL (https in live mode), at most 2048 characters. */
                    url?: string;
                    /**
                     * Format: email
                     * @description email: where the message goes.
                     */
                    email_address?: string;
                    /**
                     * Format: email
                     * @description email: read when email_address is not sent.
                     */
                    email?: string;
                    /** @description sms: 7 to 15 digits, optionally with a leading +. */
                    phone_number?: string;
                    /** @description sms: read when phone_number is not sent. */
                    phone?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** @enum {string} */
                        mode: "webhook" | "email" | "sms";
                        url: string | null;
                        email_address: string | null;
                        phone_number: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        rules: string[];
                    };
                };
            };
            /** @description `REQ01` invalid request; `URL01` the URL names a host that is not public (loopback, private, link-local or reserved address); Tessera calls public addresses only, loopback too in test mode on a development gateway (tessera serve --dev) or the QA kit, and what the gateway operator allows */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `200007` strategy not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    delete_webhooks_strategies_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `200007` strategy not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_webhooks_strategies_id_test: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        strategy_id: string;
                        url: string;
                        event_id: string;
                        /** @enum {string} */
                        status: "delivered" | "failed";
                        status_code: number | null;
                        error: string | null;
                        duration_ms: number | null;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `200007` strategy not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `WEBHOOK05` only a webhook strategy (mode webhook) can be sent a test event */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_webhooks_deliveries: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
                /** @description Only deliveries of this event. */
                event_id?: string;
                /** @description Only deliveries this rule made. */
                rule_id?: string;
                /** @description Only deliveries to this strategy. */
                strategy_id?: string;
                /** @description webhook, email or sms. */
                mode?: string;
                /** @description Only deliveries in this state. */
                status?: "pending" | "delivered" | "failed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: number;
                            event_id: string;
                            rule_id: string;
                            strategy_id: string;
                            /** @enum {string} */
                            mode: "webhook" | "email" | "sms";
                            target: string;
                            outbox_id: number | null;
                            /** Format: date-time */
                            created_at: string;
                            event_type: string;
                            /** @enum {string} */
                            status: "pending" | "delivered" | "failed";
                            attempt_count: number;
                            /** Format: date-time */
                            next_attempt_at: string | null;
                            last_status_code: number | null;
                            last_error: string | null;
                            /** Format: date-time */
                            delivered_at: string | null;
                            attempts: {
                                attempt: number;
                                /** Format: date-time */
                                at: string;
                                status_code: number | null;
                                error: string | null;
                                duration_ms: number | null;
                            }[];
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_webhooks_deliveries_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        event_id: string;
                        rule_id: string;
                        strategy_id: string;
                        /** @enum {string} */
                        mode: "webhook" | "email" | "sms";
                        target: string;
                        outbox_id: number | null;
                        /** Format: date-time */
                        created_at: string;
                        event_type: string;
                        /** @enum {string} */
                        status: "pending" | "delivered" | "failed";
                        attempt_count: number;
                        /** Format: date-time */
                        next_attempt_at: string | null;
                        last_status_code: number | null;
                        last_error: string | null;
                        /** Format: date-time */
                        delivered_at: string | null;
                        attempts: {
                            attempt: number;
                            /** Format: date-time */
                            at: string;
                            status_code: number | null;
                            error: string | null;
                            duration_ms: number | null;
                        }[];
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `WEBHOOK02` webhook delivery not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_webhooks_deliveries_id_retry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        event_id: string;
                        rule_id: string;
                        strategy_id: string;
                        /** @enum {string} */
                        mode: "webhook" | "email" | "sms";
                        target: string;
                        outbox_id: number | null;
                        /** Format: date-time */
                        created_at: string;
                        event_type: string;
                        /** @enum {string} */
                        status: "pending" | "delivered" | "failed";
                        attempt_count: number;
                        /** Format: date-time */
                        next_attempt_at: string | null;
                        last_status_code: number | null;
                        last_error: string | null;
                        /** Format: date-time */
                        delivered_at: string | null;
                        attempts: {
                            attempt: number;
                            /** Format: date-time */
                            at: string;
                            status_code: number | null;
                            error: string | null;
                            duration_ms: number | null;
                        }[];
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `WEBHOOK02` webhook delivery not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `WEBHOOK03` only a failed delivery can be queued again */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_webhooks_secret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        env: string;
                        /** @description Signs every delivery and billing callback (HMAC-SHA256). */
                        secret: string;
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * Format: date-time
                         * @description When the secret before the last rotation stops signing; null when it has.
                         */
                        previous_secret_expires_at: string | null;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `VAULT01` stored payment data cannot be read with this node's data key (TESSERA_DATA_KEY, TESSERA_DATA_KEYS_RETIRED); nothing was changed, the operator must configure the key it was encrypted with; `VAULT03` this node's data key (TESSERA_DATA_KEY) is not the one the cluster writes under (it was retired by tessera data-key reencrypt, or the cluster's key is not configured here); nothing was stored; retry, another node can take the request */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_webhooks_secret_rotate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description When the secret being replaced stops signing (default now).
                     * @enum {string}
                     */
                    expire_old?: "now" | "1h" | "24h";
                };
                "application/x-www-form-urlencoded": {
                    /**
                     * @description When the secret being replaced stops signing (default now).
                     * @enum {string}
                     */
                    expire_old?: "now" | "1h" | "24h";
                };
                "multipart/form-data": {
                    /**
                     * @description When the secret being replaced stops signing (default now).
                     * @enum {string}
                     */
                    expire_old?: "now" | "1h" | "24h";
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        env: string;
                        /** @description Signs every delivery and billing callback (HMAC-SHA256). */
                        secret: string;
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * Format: date-time
                         * @description When the secret before the last rotation stops signing; null when it has.
                         */
                        previous_secret_expires_at: string | null;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `WEBHOOK04` the secret before the last rotation still signs deliveries; rotate again with expire_old now, or after it expires */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `VAULT01` stored payment data cannot be read with this node's data key (TESSERA_DATA_KEY, TESSERA_DATA_KEYS_RETIRED); nothing was changed, the operator must configure the key it was encrypted with; `VAULT03` this node's data key (TESSERA_DATA_KEY) is not the one the cluster writes under (it was retired by tessera data-key reencrypt, or the cluster's key is not configured here); nothing was stored; retry, another node can take the request */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_plans: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100 (default: all). */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: number;
                            name: string;
                            /** @enum {string} */
                            frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                            day: number | null;
                            amount: number;
                            callback_url: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            active_subscriptions: number;
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_plans: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description At most 255 characters. */
                    name: string;
                    /**
                     * @description How often a subscription is billed.
                     * @enum {string}
                     */
                    frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                    /** @description The day billed: a weekday 0 to 7 for a weekly plan (0 and 7: Sunday), a day of the month 1 to 31 otherwise (the last day of a shorter month); ignored for a daily plan. */
                    day?: number;
                    /** @description Cents, above zero (a form body sends it as text). */
                    amount: number;
                    /**
                     * Format: uri
                     * @description Told of each billing (a public https URL; http in test mode), signed as webhooks are.
                     */
                    callback_url?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description At most 255 characters. */
                    name: string;
                    /**
                     * @description How often a subscription is billed.
                     * @enum {string}
                     */
                    frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                    /** @description The day billed: a weekday 0 to 7 for a weekly plan (0 and 7: Sunday), a day of the month 1 to 31 otherwise (the last day of a shorter month); ignored for a daily plan. */
                    day?: number;
                    /** @description Cents, above zero (a form body sends it as text). */
                    amount: number;
                    /**
                     * Format: uri
                     * @description Told of each billing (a public https URL; http in test mode), signed as webhooks are.
                     */
                    callback_url?: string;
                };
                "multipart/form-data": {
                    /** @description At most 255 characters. */
                    name: string;
                    /**
                     * @description How often a subscription is billed.
                     * @enum {string}
                     */
                    frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                    /** @description The day billed: a weekday 0 to 7 for a weekly plan (0 and 7: Sunday), a day of the month 1 to 31 otherwise (the last day of a shorter month); ignored for a daily plan. */
                    day?: number;
                    /** @description Cents, above zero (a form body sends it as text). */
                    amount: number;
                    /**
                     * Format: uri
                     * @description Told of each billing (a public https URL; http in test mode), signed as webhooks are.
                     */
                    callback_url?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        name: string;
                        /** @enum {string} */
                        frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                        day: number | null;
                        amount: number;
                        callback_url: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        active_subscriptions: number;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `59112` amount must be a number of cents above zero; `URL01` the URL names a host that is not public (loopback, private, link-local or reserved address); Tessera calls public addresses only, loopback too in test mode on a development gateway (tessera serve --dev) or the QA kit, and what the gateway operator allows */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_plans_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        name: string;
                        /** @enum {string} */
                        frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                        day: number | null;
                        amount: number;
                        callback_url: string | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        active_subscriptions: number;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `PLAN01` plan not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    delete_plans_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `PLAN01` plan not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `10010` plan cannot be deleted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_plans_id_subscription_customer_id: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Cents, overriding the plan's amount. */
                    amount?: number;
                    /** @description Which of the customer's methods pays (default: the customer's default). */
                    method_id?: string;
                    /** @description true: the customer's default bank account; false: their default card. */
                    charge_bank_account?: boolean;
                    /** @description Billings before the subscription ends, 1 to 100000 (0 or absent: until unsubscribed). */
                    ends_after?: number;
                    /** @description Make the first billing now (on subscribing only). */
                    bill_immediately?: boolean;
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                };
                "application/x-www-form-urlencoded": {
                    /** @description Cents, overriding the plan's amount. */
                    amount?: number;
                    /** @description Which of the customer's methods pays (default: the customer's default). */
                    method_id?: string;
                    /** @description true: the customer's default bank account; false: their default card. */
                    charge_bank_account?: boolean;
                    /** @description Billings before the subscription ends, 1 to 100000 (0 or absent: until unsubscribed). */
                    ends_after?: number;
                    /** @description Make the first billing now (on subscribing only). */
                    bill_immediately?: boolean;
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                };
                "multipart/form-data": {
                    /** @description Cents, overriding the plan's amount. */
                    amount?: number;
                    /** @description Which of the customer's methods pays (default: the customer's default). */
                    method_id?: string;
                    /** @description true: the customer's default bank account; false: their default card. */
                    charge_bank_account?: boolean;
                    /** @description Billings before the subscription ends, 1 to 100000 (0 or absent: until unsubscribed). */
                    ends_after?: number;
                    /** @description Make the first billing now (on subscribing only). */
                    bill_immediately?: boolean;
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        customer_id: string;
                        method_id: string | null;
                        /** @enum {string} */
                        status: "active" | "cancelled" | "ended";
                        /** Format: date-time */
                        created_at: string;
                        plan_id: number;
                        amount: number;
                        /** @enum {string} */
                        frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                        day: number | null;
                        bill_immediately: boolean;
                        charge_bank_account: boolean | null;
                        ends_after: number | null;
                        /** Format: date-time */
                        next_billing: string | null;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        cancelled_at: string | null;
                        billings_count: number;
                        /** Format: date-time */
                        updated_at: string;
                        last_billing: {
                            class: string;
                            id: number;
                            merchant_id: string;
                            plan_id: number;
                            subscription_id: number;
                            sequence: number;
                            customer_id: string;
                            transaction_id: string;
                            transaction_status: string;
                            amount: number;
                            customer_display_name: string;
                            /**
                             * @description pending: a live charge whose outcome is not recorded yet.
                             * @enum {string}
                             */
                            status: "pending" | "success" | "failed" | "retried";
                            /** @description The failed billing this one retried. */
                            parent_id: number | null;
                            error_code: string | null;
                            error_message: string | null;
                            /** @description JSON-encoded. */
                            metadata: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            created_at: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            updated_at: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            scheduled_for: string;
                        } | null;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `34792` payment token not found; `59112` amount must be a number of cents above zero */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `PLAN01` plan not found; `17001` customer not found; `82002` method not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `SUB01` the customer already has an active subscription to this plan */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    delete_plans_id_subscription_customer_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                        subscription: {
                            class: string;
                            id: number;
                            customer_id: string;
                            method_id: string | null;
                            /** @enum {string} */
                            status: "active" | "cancelled" | "ended";
                            /** Format: date-time */
                            created_at: string;
                            plan_id: number;
                            amount: number;
                            /** @enum {string} */
                            frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                            day: number | null;
                            bill_immediately: boolean;
                            charge_bank_account: boolean | null;
                            ends_after: number | null;
                            /** Format: date-time */
                            next_billing: string | null;
                            metadata: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            cancelled_at: string | null;
                            billings_count: number;
                            /** Format: date-time */
                            updated_at: string;
                            last_billing: {
                                class: string;
                                id: number;
                                merchant_id: string;
                                plan_id: number;
                                subscription_id: number;
                                sequence: number;
                                customer_id: string;
                                transaction_id: string;
                                transaction_status: string;
                                amount: number;
                                customer_display_name: string;
                                /**
                                 * @description pending: a live charge whose outcome is not recorded yet.
                                 * @enum {string}
                                 */
                                status: "pending" | "success" | "failed" | "retried";
                                /** @description The failed billing this one retried. */
                                parent_id: number | null;
                                error_code: string | null;
                                error_message: string | null;
                                /** @description JSON-encoded. */
                                metadata: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                created_at: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                updated_at: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                scheduled_for: string;
                            } | null;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `PLAN01` plan not found; `17001` customer not found; `SUB02` subscription not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_subscriptions: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100 (default: all). */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: number;
                            customer_id: string;
                            method_id: string | null;
                            /** @enum {string} */
                            status: "active" | "cancelled" | "ended";
                            /** Format: date-time */
                            created_at: string;
                            plan_id: number;
                            amount: number;
                            /** @enum {string} */
                            frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                            day: number | null;
                            bill_immediately: boolean;
                            charge_bank_account: boolean | null;
                            ends_after: number | null;
                            /** Format: date-time */
                            next_billing: string | null;
                            metadata: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            cancelled_at: string | null;
                            billings_count: number;
                            /** Format: date-time */
                            updated_at: string;
                            last_billing: {
                                class: string;
                                id: number;
                                merchant_id: string;
                                plan_id: number;
                                subscription_id: number;
                                sequence: number;
                                customer_id: string;
                                transaction_id: string;
                                transaction_status: string;
                                amount: number;
                                customer_display_name: string;
                                /**
                                 * @description pending: a live charge whose outcome is not recorded yet.
                                 * @enum {string}
                                 */
                                status: "pending" | "success" | "failed" | "retried";
                                /** @description The failed billing this one retried. */
                                parent_id: number | null;
                                error_code: string | null;
                                error_message: string | null;
                                /** @description JSON-encoded. */
                                metadata: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                created_at: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                updated_at: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                scheduled_for: string;
                            } | null;
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_subscriptions_customer_customer_id: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100 (default: all). */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
            };
            header?: never;
            path: {
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: number;
                            customer_id: string;
                            method_id: string | null;
                            /** @enum {string} */
                            status: "active" | "cancelled" | "ended";
                            /** Format: date-time */
                            created_at: string;
                            plan_id: number;
                            amount: number;
                            /** @enum {string} */
                            frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                            day: number | null;
                            bill_immediately: boolean;
                            charge_bank_account: boolean | null;
                            ends_after: number | null;
                            /** Format: date-time */
                            next_billing: string | null;
                            metadata: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            cancelled_at: string | null;
                            billings_count: number;
                            /** Format: date-time */
                            updated_at: string;
                            last_billing: {
                                class: string;
                                id: number;
                                merchant_id: string;
                                plan_id: number;
                                subscription_id: number;
                                sequence: number;
                                customer_id: string;
                                transaction_id: string;
                                transaction_status: string;
                                amount: number;
                                customer_display_name: string;
                                /**
                                 * @description pending: a live charge whose outcome is not recorded yet.
                                 * @enum {string}
                                 */
                                status: "pending" | "success" | "failed" | "retried";
                                /** @description The failed billing this one retried. */
                                parent_id: number | null;
                                error_code: string | null;
                                error_message: string | null;
                                /** @description JSON-encoded. */
                                metadata: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                created_at: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                updated_at: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                scheduled_for: string;
                            } | null;
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `17001` customer not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_subscriptions_plan_plan_id: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100 (default: all). */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
            };
            header?: never;
            path: {
                plan_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: number;
                            customer_id: string;
                            method_id: string | null;
                            /** @enum {string} */
                            status: "active" | "cancelled" | "ended";
                            /** Format: date-time */
                            created_at: string;
                            plan_id: number;
                            amount: number;
                            /** @enum {string} */
                            frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                            day: number | null;
                            bill_immediately: boolean;
                            charge_bank_account: boolean | null;
                            ends_after: number | null;
                            /** Format: date-time */
                            next_billing: string | null;
                            metadata: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            cancelled_at: string | null;
                            billings_count: number;
                            /** Format: date-time */
                            updated_at: string;
                            last_billing: {
                                class: string;
                                id: number;
                                merchant_id: string;
                                plan_id: number;
                                subscription_id: number;
                                sequence: number;
                                customer_id: string;
                                transaction_id: string;
                                transaction_status: string;
                                amount: number;
                                customer_display_name: string;
                                /**
                                 * @description pending: a live charge whose outcome is not recorded yet.
                                 * @enum {string}
                                 */
                                status: "pending" | "success" | "failed" | "retried";
                                /** @description The failed billing this one retried. */
                                parent_id: number | null;
                                error_code: string | null;
                                error_message: string | null;
                                /** @description JSON-encoded. */
                                metadata: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                created_at: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                updated_at: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                scheduled_for: string;
                            } | null;
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `PLAN01` plan not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_subscriptions_plan_plan_id_customer_customer_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                plan_id: string;
                customer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        customer_id: string;
                        method_id: string | null;
                        /** @enum {string} */
                        status: "active" | "cancelled" | "ended";
                        /** Format: date-time */
                        created_at: string;
                        plan_id: number;
                        amount: number;
                        /** @enum {string} */
                        frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                        day: number | null;
                        bill_immediately: boolean;
                        charge_bank_account: boolean | null;
                        ends_after: number | null;
                        /** Format: date-time */
                        next_billing: string | null;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        cancelled_at: string | null;
                        billings_count: number;
                        /** Format: date-time */
                        updated_at: string;
                        last_billing: {
                            class: string;
                            id: number;
                            merchant_id: string;
                            plan_id: number;
                            subscription_id: number;
                            sequence: number;
                            customer_id: string;
                            transaction_id: string;
                            transaction_status: string;
                            amount: number;
                            customer_display_name: string;
                            /**
                             * @description pending: a live charge whose outcome is not recorded yet.
                             * @enum {string}
                             */
                            status: "pending" | "success" | "failed" | "retried";
                            /** @description The failed billing this one retried. */
                            parent_id: number | null;
                            error_code: string | null;
                            error_message: string | null;
                            /** @description JSON-encoded. */
                            metadata: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            created_at: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            updated_at: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            scheduled_for: string;
                        } | null;
                        subscriptions: {
                            class: string;
                            id: number;
                            customer_id: string;
                            method_id: string | null;
                            /** @enum {string} */
                            status: "active" | "cancelled" | "ended";
                            /** Format: date-time */
                            created_at: string;
                            plan_id: number;
                            amount: number;
                            /** @enum {string} */
                            frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                            day: number | null;
                            bill_immediately: boolean;
                            charge_bank_account: boolean | null;
                            ends_after: number | null;
                            /** Format: date-time */
                            next_billing: string | null;
                            metadata: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            cancelled_at: string | null;
                            billings_count: number;
                            /** Format: date-time */
                            updated_at: string;
                            last_billing: {
                                class: string;
                                id: number;
                                merchant_id: string;
                                plan_id: number;
                                subscription_id: number;
                                sequence: number;
                                customer_id: string;
                                transaction_id: string;
                                transaction_status: string;
                                amount: number;
                                customer_display_name: string;
                                /**
                                 * @description pending: a live charge whose outcome is not recorded yet.
                                 * @enum {string}
                                 */
                                status: "pending" | "success" | "failed" | "retried";
                                /** @description The failed billing this one retried. */
                                parent_id: number | null;
                                error_code: string | null;
                                error_message: string | null;
                                /** @description JSON-encoded. */
                                metadata: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                created_at: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                updated_at: string;
                                /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                                scheduled_for: string;
                            } | null;
                        }[];
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `PLAN01` plan not found; `17001` customer not found; `SUB02` subscription not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_subscriptions_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        customer_id: string;
                        method_id: string | null;
                        /** @enum {string} */
                        status: "active" | "cancelled" | "ended";
                        /** Format: date-time */
                        created_at: string;
                        plan_id: number;
                        amount: number;
                        /** @enum {string} */
                        frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                        day: number | null;
                        bill_immediately: boolean;
                        charge_bank_account: boolean | null;
                        ends_after: number | null;
                        /** Format: date-time */
                        next_billing: string | null;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        cancelled_at: string | null;
                        billings_count: number;
                        /** Format: date-time */
                        updated_at: string;
                        last_billing: {
                            class: string;
                            id: number;
                            merchant_id: string;
                            plan_id: number;
                            subscription_id: number;
                            sequence: number;
                            customer_id: string;
                            transaction_id: string;
                            transaction_status: string;
                            amount: number;
                            customer_display_name: string;
                            /**
                             * @description pending: a live charge whose outcome is not recorded yet.
                             * @enum {string}
                             */
                            status: "pending" | "success" | "failed" | "retried";
                            /** @description The failed billing this one retried. */
                            parent_id: number | null;
                            error_code: string | null;
                            error_message: string | null;
                            /** @description JSON-encoded. */
                            metadata: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            created_at: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            updated_at: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            scheduled_for: string;
                        } | null;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `SUB02` subscription not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_subscriptions_id: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Cents, overriding the plan's amount. */
                    amount?: number;
                    /** @description Which of the customer's methods pays (default: the customer's default). */
                    method_id?: string;
                    /** @description true: the customer's default bank account; false: their default card. */
                    charge_bank_account?: boolean;
                    /** @description Billings before the subscription ends, 1 to 100000 (0 or absent: until unsubscribed). */
                    ends_after?: number;
                    /** @description Make the first billing now (on subscribing only). */
                    bill_immediately?: boolean;
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                };
                "application/x-www-form-urlencoded": {
                    /** @description Cents, overriding the plan's amount. */
                    amount?: number;
                    /** @description Which of the customer's methods pays (default: the customer's default). */
                    method_id?: string;
                    /** @description true: the customer's default bank account; false: their default card. */
                    charge_bank_account?: boolean;
                    /** @description Billings before the subscription ends, 1 to 100000 (0 or absent: until unsubscribed). */
                    ends_after?: number;
                    /** @description Make the first billing now (on subscribing only). */
                    bill_immediately?: boolean;
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                };
                "multipart/form-data": {
                    /** @description Cents, overriding the plan's amount. */
                    amount?: number;
                    /** @description Which of the customer's methods pays (default: the customer's default). */
                    method_id?: string;
                    /** @description true: the customer's default bank account; false: their default card. */
                    charge_bank_account?: boolean;
                    /** @description Billings before the subscription ends, 1 to 100000 (0 or absent: until unsubscribed). */
                    ends_after?: number;
                    /** @description Make the first billing now (on subscribing only). */
                    bill_immediately?: boolean;
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        customer_id: string;
                        method_id: string | null;
                        /** @enum {string} */
                        status: "active" | "cancelled" | "ended";
                        /** Format: date-time */
                        created_at: string;
                        plan_id: number;
                        amount: number;
                        /** @enum {string} */
                        frequency: "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
                        day: number | null;
                        bill_immediately: boolean;
                        charge_bank_account: boolean | null;
                        ends_after: number | null;
                        /** Format: date-time */
                        next_billing: string | null;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        cancelled_at: string | null;
                        billings_count: number;
                        /** Format: date-time */
                        updated_at: string;
                        last_billing: {
                            class: string;
                            id: number;
                            merchant_id: string;
                            plan_id: number;
                            subscription_id: number;
                            sequence: number;
                            customer_id: string;
                            transaction_id: string;
                            transaction_status: string;
                            amount: number;
                            customer_display_name: string;
                            /**
                             * @description pending: a live charge whose outcome is not recorded yet.
                             * @enum {string}
                             */
                            status: "pending" | "success" | "failed" | "retried";
                            /** @description The failed billing this one retried. */
                            parent_id: number | null;
                            error_code: string | null;
                            error_message: string | null;
                            /** @description JSON-encoded. */
                            metadata: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            created_at: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            updated_at: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            scheduled_for: string;
                        } | null;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `34792` payment token not found; `59112` amount must be a number of cents above zero */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `SUB02` subscription not found; `82002` method not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `SUB03` only an active subscription can be changed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_billings: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
                /** @description Only this subscription’s billings. */
                subscription_id?: number;
                /** @description Only this plan’s billings. */
                plan_id?: number;
                /** @description Only this customer’s billings. */
                customer_id?: string;
                /** @description Only billings in this status. */
                status?: "pending" | "success" | "failed" | "retried";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: number;
                            merchant_id: string;
                            plan_id: number;
                            subscription_id: number;
                            sequence: number;
                            customer_id: string;
                            transaction_id: string;
                            transaction_status: string;
                            amount: number;
                            customer_display_name: string;
                            /**
                             * @description pending: a live charge whose outcome is not recorded yet.
                             * @enum {string}
                             */
                            status: "pending" | "success" | "failed" | "retried";
                            /** @description The failed billing this one retried. */
                            parent_id: number | null;
                            error_code: string | null;
                            error_message: string | null;
                            /** @description JSON-encoded. */
                            metadata: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            created_at: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            updated_at: string;
                            /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                            scheduled_for: string;
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_billings_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        merchant_id: string;
                        plan_id: number;
                        subscription_id: number;
                        sequence: number;
                        customer_id: string;
                        transaction_id: string;
                        transaction_status: string;
                        amount: number;
                        customer_display_name: string;
                        /**
                         * @description pending: a live charge whose outcome is not recorded yet.
                         * @enum {string}
                         */
                        status: "pending" | "success" | "failed" | "retried";
                        /** @description The failed billing this one retried. */
                        parent_id: number | null;
                        error_code: string | null;
                        error_message: string | null;
                        /** @description JSON-encoded. */
                        metadata: string;
                        /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                        created_at: string;
                        /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                        updated_at: string;
                        /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                        scheduled_for: string;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `11000` billing id not available for the merchant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_billings_retry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The failed billing's transaction_id. */
                    id: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description The failed billing's transaction_id. */
                    id: string;
                };
                "multipart/form-data": {
                    /** @description The failed billing's transaction_id. */
                    id: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: number;
                        merchant_id: string;
                        plan_id: number;
                        subscription_id: number;
                        sequence: number;
                        customer_id: string;
                        transaction_id: string;
                        transaction_status: string;
                        amount: number;
                        customer_display_name: string;
                        /**
                         * @description pending: a live charge whose outcome is not recorded yet.
                         * @enum {string}
                         */
                        status: "pending" | "success" | "failed" | "retried";
                        /** @description The failed billing this one retried. */
                        parent_id: number | null;
                        error_code: string | null;
                        error_message: string | null;
                        /** @description JSON-encoded. */
                        metadata: string;
                        /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                        created_at: string;
                        /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                        updated_at: string;
                        /** @description UTC, `YYYY-MM-DD HH:MM:SS` (spec 2.1). */
                        scheduled_for: string;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `99820` card declined */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `10210` billing with this transaction id not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `10212` billing is not in failed status */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `PROC01` no payment processor is configured for live mode; live charges are refused */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_scheduled_transactions: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: string;
                            customer_id: string | null;
                            method_id: string | null;
                            /**
                             * @description processing: a live charge whose outcome is not recorded yet.
                             * @enum {string}
                             */
                            status: "scheduled" | "processing" | "billed" | "failed" | "cancelled";
                            /** @description YYYY-MM-DD. */
                            bill_on: string;
                            /** Format: date-time */
                            created_at: string;
                            new_record: boolean;
                            receipt_template_id: string | null;
                            email_address: string | null;
                            charge_bank_account: boolean | null;
                            description: string | null;
                            company: string | null;
                            website: string | null;
                            address_1: string | null;
                            address_2: string | null;
                            city: string | null;
                            state: string | null;
                            zip: string | null;
                            phone_number: string | null;
                            fax_number: string | null;
                            card_owner_name: string | null;
                            bank_account_holder_first_name: string | null;
                            bank_account_holder_last_name: string | null;
                            error_code: string | null;
                            error_message: string | null;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description '' before billing. */
                            transaction_id: string;
                            token: string;
                            /** @description Cents, as text (spec 2.7). */
                            amount: string;
                            send_receipt: string;
                            /** @description JSON-encoded. */
                            metadata: string;
                            ip_address: string;
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `1800` limit must be a positive integer; `1802` limit must not be greater than 100; `1801` offset must be a positive integer */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_scheduled_transactions: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Bill this stored customer's method. */
                    customer_id?: string;
                    /** @description Or a one-time token: kept until the day as a new customer (new_record: true). */
                    token?: string;
                    /** @description Cents, above zero (a form body sends it as text). */
                    amount: number;
                    /**
                     * Format: date
                     * @description The day to bill, YYYY-MM-DD (an ISO date-time: its UTC date): today (UTC) or later, at most ten years ahead.
                     */
                    bill_on: string;
                    /** @description At most 1000 characters. */
                    description?: string;
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description Email a receipt when it bills (default: the customer's setting). */
                    send_receipt?: boolean;
                    /** @description true: the customer's default bank account; false: their default card. */
                    charge_bank_account?: boolean;
                    /**
                     * Format: email
                     * @description Where the receipt goes.
                     */
                    email_address?: string;
                    /** @description Payer company. */
                    company?: string;
                    /** @description Payer website. */
                    website?: string;
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description ZIP code. */
                    zip?: string;
                    /** @description Payer's phone. */
                    phone_number?: string;
                    /** @description Payer's fax. */
                    fax_number?: string;
                    /** @description phone_number, by the name a charge uses. */
                    phone?: string;
                    /** @description fax_number, by the name a charge uses. */
                    fax?: string;
                    /** @description Which of the customer's methods (default: the customer's default method). */
                    method_id?: string;
                    /** @description The receipt template to use. */
                    receipt_template_id?: string;
                    /** @description The token's security code, checked when the token becomes a customer. */
                    cvv?: string;
                    /** @description Security code (cvv is read first). */
                    csc?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Bill this stored customer's method. */
                    customer_id?: string;
                    /** @description Or a one-time token: kept until the day as a new customer (new_record: true). */
                    token?: string;
                    /** @description Cents, above zero (a form body sends it as text). */
                    amount: number;
                    /**
                     * Format: date
                     * @description The day to bill, YYYY-MM-DD (an ISO date-time: its UTC date): today (UTC) or later, at most ten years ahead.
                     */
                    bill_on: string;
                    /** @description At most 1000 characters. */
                    description?: string;
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description Email a receipt when it bills (default: the customer's setting). */
                    send_receipt?: boolean;
                    /** @description true: the customer's default bank account; false: their default card. */
                    charge_bank_account?: boolean;
                    /**
                     * Format: email
                     * @description Where the receipt goes.
                     */
                    email_address?: string;
                    /** @description Payer company. */
                    company?: string;
                    /** @description Payer website. */
                    website?: string;
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description ZIP code. */
                    zip?: string;
                    /** @description Payer's phone. */
                    phone_number?: string;
                    /** @description Payer's fax. */
                    fax_number?: string;
                    /** @description phone_number, by the name a charge uses. */
                    phone?: string;
                    /** @description fax_number, by the name a charge uses. */
                    fax?: string;
                    /** @description Which of the customer's methods (default: the customer's default method). */
                    method_id?: string;
                    /** @description The receipt template to use. */
                    receipt_template_id?: string;
                    /** @description The token's security code, checked when the token becomes a customer. */
                    cvv?: string;
                    /** @description Security code (cvv is read first). */
                    csc?: string;
                };
                "multipart/form-data": {
                    /** @description Bill this stored customer's method. */
                    customer_id?: string;
                    /** @description Or a one-time token: kept until the day as a new customer (new_record: true). */
                    token?: string;
                    /** @description Cents, above zero (a form body sends it as text). */
                    amount: number;
                    /**
                     * Format: date
                     * @description The day to bill, YYYY-MM-DD (an ISO date-time: its UTC date): today (UTC) or later, at most ten years ahead.
                     */
                    bill_on: string;
                    /** @description At most 1000 characters. */
                    description?: string;
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description Email a receipt when it bills (default: the customer's setting). */
                    send_receipt?: boolean;
                    /** @description true: the customer's default bank account; false: their default card. */
                    charge_bank_account?: boolean;
                    /**
                     * Format: email
                     * @description Where the receipt goes.
                     */
                    email_address?: string;
                    /** @description Payer company. */
                    company?: string;
                    /** @description Payer website. */
                    website?: string;
                    /** @description Billing address. */
                    address_1?: string;
                    /** @description Billing address. */
                    address_2?: string;
                    /** @description City. */
                    city?: string;
                    /** @description Two-letter state. */
                    state?: string;
                    /** @description ZIP code. */
                    zip?: string;
                    /** @description Payer's phone. */
                    phone_number?: string;
                    /** @description Payer's fax. */
                    fax_number?: string;
                    /** @description phone_number, by the name a charge uses. */
                    phone?: string;
                    /** @description fax_number, by the name a charge uses. */
                    fax?: string;
                    /** @description Which of the customer's methods (default: the customer's default method). */
                    method_id?: string;
                    /** @description The receipt template to use. */
                    receipt_template_id?: string;
                    /** @description The token's security code, checked when the token becomes a customer. */
                    cvv?: string;
                    /** @description Security code (cvv is read first). */
                    csc?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        customer_id: string | null;
                        method_id: string | null;
                        /**
                         * @description processing: a live charge whose outcome is not recorded yet.
                         * @enum {string}
                         */
                        status: "scheduled" | "processing" | "billed" | "failed" | "cancelled";
                        /** @description YYYY-MM-DD. */
                        bill_on: string;
                        /** Format: date-time */
                        created_at: string;
                        new_record: boolean;
                        receipt_template_id: string | null;
                        email_address: string | null;
                        charge_bank_account: boolean | null;
                        description: string | null;
                        company: string | null;
                        website: string | null;
                        address_1: string | null;
                        address_2: string | null;
                        city: string | null;
                        state: string | null;
                        zip: string | null;
                        phone_number: string | null;
                        fax_number: string | null;
                        card_owner_name: string | null;
                        bank_account_holder_first_name: string | null;
                        bank_account_holder_last_name: string | null;
                        error_code: string | null;
                        error_message: string | null;
                        /** Format: date-time */
                        updated_at: string;
                        /** @description '' before billing. */
                        transaction_id: string;
                        token: string;
                        /** @description Cents, as text (spec 2.7). */
                        amount: string;
                        send_receipt: string;
                        /** @description JSON-encoded. */
                        metadata: string;
                        ip_address: string;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `59112` amount must be a number of cents above zero; `69201` valid token required; `69002` parameters missing (token, amount); `48291` parameters missing (customer_id, amount); `99819` amount must be a positive number of cents; `34798` valid customer_id required; `34792` payment token not found; `69006` receipt email address invalid; `69005` email_address needed to send a receipt */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `10300` receipt template not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_scheduled_transactions_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        customer_id: string | null;
                        method_id: string | null;
                        /**
                         * @description processing: a live charge whose outcome is not recorded yet.
                         * @enum {string}
                         */
                        status: "scheduled" | "processing" | "billed" | "failed" | "cancelled";
                        /** @description YYYY-MM-DD. */
                        bill_on: string;
                        /** Format: date-time */
                        created_at: string;
                        new_record: boolean;
                        receipt_template_id: string | null;
                        email_address: string | null;
                        charge_bank_account: boolean | null;
                        description: string | null;
                        company: string | null;
                        website: string | null;
                        address_1: string | null;
                        address_2: string | null;
                        city: string | null;
                        state: string | null;
                        zip: string | null;
                        phone_number: string | null;
                        fax_number: string | null;
                        card_owner_name: string | null;
                        bank_account_holder_first_name: string | null;
                        bank_account_holder_last_name: string | null;
                        error_code: string | null;
                        error_message: string | null;
                        /** Format: date-time */
                        updated_at: string;
                        /** @description '' before billing. */
                        transaction_id: string;
                        token: string;
                        /** @description Cents, as text (spec 2.7). */
                        amount: string;
                        send_receipt: string;
                        /** @description JSON-encoded. */
                        metadata: string;
                        ip_address: string;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `SCHED01` scheduled transaction not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_scheduled_transactions_id_cancel: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        customer_id: string | null;
                        method_id: string | null;
                        /**
                         * @description processing: a live charge whose outcome is not recorded yet.
                         * @enum {string}
                         */
                        status: "scheduled" | "processing" | "billed" | "failed" | "cancelled";
                        /** @description YYYY-MM-DD. */
                        bill_on: string;
                        /** Format: date-time */
                        created_at: string;
                        new_record: boolean;
                        receipt_template_id: string | null;
                        email_address: string | null;
                        charge_bank_account: boolean | null;
                        description: string | null;
                        company: string | null;
                        website: string | null;
                        address_1: string | null;
                        address_2: string | null;
                        city: string | null;
                        state: string | null;
                        zip: string | null;
                        phone_number: string | null;
                        fax_number: string | null;
                        card_owner_name: string | null;
                        bank_account_holder_first_name: string | null;
                        bank_account_holder_last_name: string | null;
                        error_code: string | null;
                        error_message: string | null;
                        /** Format: date-time */
                        updated_at: string;
                        /** @description '' before billing. */
                        transaction_id: string;
                        token: string;
                        /** @description Cents, as text (spec 2.7). */
                        amount: string;
                        send_receipt: string;
                        /** @description JSON-encoded. */
                        metadata: string;
                        ip_address: string;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `SCHED01` scheduled transaction not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `SCHED02` only a scheduled transaction that has not billed yet can be cancelled */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_test_helpers_clock: {
        parameters: {
            query?: {
                /** @description Answer only when the advance under way is done. */
                wait?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class?: string;
                        /** Format: date-time */
                        now?: string;
                        offset_ms?: number;
                        /** Format: date-time */
                        real_now?: string;
                        advancing?: boolean;
                        /** Format: date-time */
                        previous?: string;
                        /** Format: date-time */
                        to?: string;
                        ran?: {
                            billings?: number;
                            failed_billings?: number;
                            scheduled_transactions?: number;
                            failed_scheduled_transactions?: number;
                            errors?: number;
                        };
                        advance?: {
                            /** Format: date-time */
                            previous?: string;
                            /** Format: date-time */
                            to?: string;
                            /** Format: date-time */
                            reached?: string;
                            ran?: {
                                billings?: number;
                                failed_billings?: number;
                                scheduled_transactions?: number;
                                failed_scheduled_transactions?: number;
                                errors?: number;
                            };
                            /** Format: date-time */
                            started_at?: string;
                            /** Format: date-time */
                            finished_at?: string | null;
                        } | null;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server; `TEST02` test helpers (such as the reset) work only with a test private key; live data can never be wiped */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_test_helpers_clock_advance: {
        parameters: {
            query?: {
                /** @description Answer only when the advance under way is done. */
                wait?: boolean;
            };
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description Move to this time (forward only).
                     */
                    to?: string;
                    /** @description Calendar months (the day clamped: Jan 31 + 1 month = Feb 28). */
                    months?: number | string;
                    /** @description Move forward by this many days. */
                    days?: number | string;
                    /** @description Move forward by this many hours. */
                    hours?: number | string;
                    /** @description Move forward by this many minutes. */
                    minutes?: number | string;
                    /** @description Move forward by this many seconds. */
                    seconds?: number | string;
                    /** @description Answer only when the advance is done (the query string's wins). */
                    wait?: boolean;
                };
                "application/x-www-form-urlencoded": {
                    /**
                     * Format: date-time
                     * @description Move to this time (forward only).
                     */
                    to?: string;
                    /** @description Calendar months (the day clamped: Jan 31 + 1 month = Feb 28). */
                    months?: number | string;
                    /** @description Move forward by this many days. */
                    days?: number | string;
                    /** @description Move forward by this many hours. */
                    hours?: number | string;
                    /** @description Move forward by this many minutes. */
                    minutes?: number | string;
                    /** @description Move forward by this many seconds. */
                    seconds?: number | string;
                    /** @description Answer only when the advance is done (the query string's wins). */
                    wait?: boolean;
                };
                "multipart/form-data": {
                    /**
                     * Format: date-time
                     * @description Move to this time (forward only).
                     */
                    to?: string;
                    /** @description Calendar months (the day clamped: Jan 31 + 1 month = Feb 28). */
                    months?: number | string;
                    /** @description Move forward by this many days. */
                    days?: number | string;
                    /** @description Move forward by this many hours. */
                    hours?: number | string;
                    /** @description Move forward by this many minutes. */
                    minutes?: number | string;
                    /** @description Move forward by this many seconds. */
                    seconds?: number | string;
                    /** @description Answer only when the advance is done (the query string's wins). */
                    wait?: boolean;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class?: string;
                        /** Format: date-time */
                        now?: string;
                        offset_ms?: number;
                        /** Format: date-time */
                        real_now?: string;
                        advancing?: boolean;
                        /** Format: date-time */
                        previous?: string;
                        /** Format: date-time */
                        to?: string;
                        ran?: {
                            billings?: number;
                            failed_billings?: number;
                            scheduled_transactions?: number;
                            failed_scheduled_transactions?: number;
                            errors?: number;
                        };
                        advance?: {
                            /** Format: date-time */
                            previous?: string;
                            /** Format: date-time */
                            to?: string;
                            /** Format: date-time */
                            reached?: string;
                            ran?: {
                                billings?: number;
                                failed_billings?: number;
                                scheduled_transactions?: number;
                                failed_scheduled_transactions?: number;
                                errors?: number;
                            };
                            /** Format: date-time */
                            started_at?: string;
                            /** Format: date-time */
                            finished_at?: string | null;
                        } | null;
                    };
                };
            };
            /** @description success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class?: string;
                        /** Format: date-time */
                        now?: string;
                        offset_ms?: number;
                        /** Format: date-time */
                        real_now?: string;
                        advancing?: boolean;
                        /** Format: date-time */
                        previous?: string;
                        /** Format: date-time */
                        to?: string;
                        ran?: {
                            billings?: number;
                            failed_billings?: number;
                            scheduled_transactions?: number;
                            failed_scheduled_transactions?: number;
                            errors?: number;
                        };
                        advance?: {
                            /** Format: date-time */
                            previous?: string;
                            /** Format: date-time */
                            to?: string;
                            /** Format: date-time */
                            reached?: string;
                            ran?: {
                                billings?: number;
                                failed_billings?: number;
                                scheduled_transactions?: number;
                                failed_scheduled_transactions?: number;
                                errors?: number;
                            };
                            /** Format: date-time */
                            started_at?: string;
                            /** Format: date-time */
                            finished_at?: string | null;
                        } | null;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `CLOCK02` the test clock only moves forward */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server; `TEST02` test helpers (such as the reset) work only with a test private key; live data can never be wiped */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `CLOCK03` an advance of this test clock is under way; GET /test_helpers/clock shows how far it has got; advance again when it has finished */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_invoices: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
                /** @description Only invoices in this status (deleted ones only by asking for them). */
                status?: "unpaid" | "partially_paid" | "paid" | "deleted";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: string;
                            /** @description unpaid, partially_paid, paid or deleted. */
                            status: string;
                            customer_id: string | null;
                            customer_first_name: string | null;
                            customer_last_name: string | null;
                            customer_email: string | null;
                            customer_address_1: string | null;
                            customer_address_2: string | null;
                            customer_city: string | null;
                            customer_state: string | null;
                            customer_zip: string | null;
                            customer_company: string | null;
                            customer_phone: string | null;
                            customer_fax: string | null;
                            items: {
                                description: string;
                                quantity: number;
                                unit_amount: number;
                                amount: number;
                            }[];
                            amount: number;
                            amount_paid: number;
                            payments: {
                                id: string;
                                amount: number;
                                /** Format: date-time */
                                created_at: string;
                            }[];
                            due_date: string | null;
                            memo: string | null;
                            metadata: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** Format: date-time */
                            paid_at: string | null;
                            /** Format: date-time */
                            deleted_at: string | null;
                            balance: number;
                            /** @description The email of the invoice, once queued. */
                            delivery: {
                                email_address: string;
                                status: string;
                                attempts: number;
                                /** Format: date-time */
                                queued_at: string;
                                /** Format: date-time */
                                sent_at: string | null;
                                last_error: string | null;
                            } | null;
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_invoices: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description The customer's first name, at most 100 characters (filled from customer_id when left out). */
                    customer_first_name?: string;
                    /** @description The customer's last name, at most 100 characters (filled from customer_id when left out). */
                    customer_last_name?: string;
                    /**
                     * Format: email
                     * @description The customer's email, at most 254 characters (filled from customer_id when left out).
                     */
                    customer_email?: string;
                    /** @description The customer's address 1, at most 255 characters (filled from customer_id when left out). */
                    customer_address_1?: string;
                    /** @description The customer's address 2, at most 255 characters (filled from customer_id when left out). */
                    customer_address_2?: string;
                    /** @description The customer's city, at most 100 characters (filled from customer_id when left out). */
                    customer_city?: string;
                    /** @description The customer's state, at most 2 characters (filled from customer_id when left out). */
                    customer_state?: string;
                    /** @description The customer's zip, at most 16 characters (filled from customer_id when left out). */
                    customer_zip?: string;
                    /** @description The customer's company, at most 255 characters (filled from customer_id when left out). */
                    customer_company?: string;
                    /** @description The customer's phone, at most 32 characters (filled from customer_id when left out). */
                    customer_phone?: string;
                    /** @description The customer's fax, at most 32 characters (filled from customer_id when left out). */
                    customer_fax?: string;
                    /** @description Line items (1 to 100), or the same JSON-encoded (a form sends items[0][description]=…). */
                    items?: {
                        description: string;
                        /** @default 1 */
                        quantity?: number;
                        /** @description Cents. */
                        unit_amount: number;
                    }[];
                    /** @description Cents, for an invoice of one line (or the items' total). */
                    amount?: number;
                    /** @description The one line of an invoice given by amount (default: "Amount due"). */
                    description?: string;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD.
                     */
                    due_date?: string;
                    /** @description At most 2000 characters. */
                    memo?: string;
                    /** @description Links a stored customer, filling the customer_* fields left out; blank unlinks (update). */
                    customer_id?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description The customer's first name, at most 100 characters (filled from customer_id when left out). */
                    customer_first_name?: string;
                    /** @description The customer's last name, at most 100 characters (filled from customer_id when left out). */
                    customer_last_name?: string;
                    /**
                     * Format: email
                     * @description The customer's email, at most 254 characters (filled from customer_id when left out).
                     */
                    customer_email?: string;
                    /** @description The customer's address 1, at most 255 characters (filled from customer_id when left out). */
                    customer_address_1?: string;
                    /** @description The customer's address 2, at most 255 characters (filled from customer_id when left out). */
                    customer_address_2?: string;
                    /** @description The customer's city, at most 100 characters (filled from customer_id when left out). */
                    customer_city?: string;
                    /** @description The customer's state, at most 2 characters (filled from customer_id when left out). */
                    customer_state?: string;
                    /** @description The customer's zip, at most 16 characters (filled from customer_id when left out). */
                    customer_zip?: string;
                    /** @description The customer's company, at most 255 characters (filled from customer_id when left out). */
                    customer_company?: string;
                    /** @description The customer's phone, at most 32 characters (filled from customer_id when left out). */
                    customer_phone?: string;
                    /** @description The customer's fax, at most 32 characters (filled from customer_id when left out). */
                    customer_fax?: string;
                    /** @description Line items (1 to 100), or the same JSON-encoded (a form sends items[0][description]=…). */
                    items?: {
                        description: string;
                        /** @default 1 */
                        quantity?: number;
                        /** @description Cents. */
                        unit_amount: number;
                    }[];
                    /** @description Cents, for an invoice of one line (or the items' total). */
                    amount?: number;
                    /** @description The one line of an invoice given by amount (default: "Amount due"). */
                    description?: string;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD.
                     */
                    due_date?: string;
                    /** @description At most 2000 characters. */
                    memo?: string;
                    /** @description Links a stored customer, filling the customer_* fields left out; blank unlinks (update). */
                    customer_id?: string;
                };
                "multipart/form-data": {
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description The customer's first name, at most 100 characters (filled from customer_id when left out). */
                    customer_first_name?: string;
                    /** @description The customer's last name, at most 100 characters (filled from customer_id when left out). */
                    customer_last_name?: string;
                    /**
                     * Format: email
                     * @description The customer's email, at most 254 characters (filled from customer_id when left out).
                     */
                    customer_email?: string;
                    /** @description The customer's address 1, at most 255 characters (filled from customer_id when left out). */
                    customer_address_1?: string;
                    /** @description The customer's address 2, at most 255 characters (filled from customer_id when left out). */
                    customer_address_2?: string;
                    /** @description The customer's city, at most 100 characters (filled from customer_id when left out). */
                    customer_city?: string;
                    /** @description The customer's state, at most 2 characters (filled from customer_id when left out). */
                    customer_state?: string;
                    /** @description The customer's zip, at most 16 characters (filled from customer_id when left out). */
                    customer_zip?: string;
                    /** @description The customer's company, at most 255 characters (filled from customer_id when left out). */
                    customer_company?: string;
                    /** @description The customer's phone, at most 32 characters (filled from customer_id when left out). */
                    customer_phone?: string;
                    /** @description The customer's fax, at most 32 characters (filled from customer_id when left out). */
                    customer_fax?: string;
                    /** @description Line items (1 to 100), or the same JSON-encoded (a form sends items[0][description]=…). */
                    items?: {
                        description: string;
                        /** @default 1 */
                        quantity?: number;
                        /** @description Cents. */
                        unit_amount: number;
                    }[];
                    /** @description Cents, for an invoice of one line (or the items' total). */
                    amount?: number;
                    /** @description The one line of an invoice given by amount (default: "Amount due"). */
                    description?: string;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD.
                     */
                    due_date?: string;
                    /** @description At most 2000 characters. */
                    memo?: string;
                    /** @description Links a stored customer, filling the customer_* fields left out; blank unlinks (update). */
                    customer_id?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** @description unpaid, partially_paid, paid or deleted. */
                        status: string;
                        customer_id: string | null;
                        customer_first_name: string | null;
                        customer_last_name: string | null;
                        customer_email: string | null;
                        customer_address_1: string | null;
                        customer_address_2: string | null;
                        customer_city: string | null;
                        customer_state: string | null;
                        customer_zip: string | null;
                        customer_company: string | null;
                        customer_phone: string | null;
                        customer_fax: string | null;
                        items: {
                            description: string;
                            quantity: number;
                            unit_amount: number;
                            amount: number;
                        }[];
                        amount: number;
                        amount_paid: number;
                        payments: {
                            id: string;
                            amount: number;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                        due_date: string | null;
                        memo: string | null;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** Format: date-time */
                        paid_at: string | null;
                        /** Format: date-time */
                        deleted_at: string | null;
                        balance: number;
                        /** @description The email of the invoice, once queued. */
                        delivery: {
                            email_address: string;
                            status: string;
                            attempts: number;
                            /** Format: date-time */
                            queued_at: string;
                            /** Format: date-time */
                            sent_at: string | null;
                            last_error: string | null;
                        } | null;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `59112` amount must be a number of cents above zero; `34798` valid customer_id required; `81609` customer email invalid or state not a two-character abbreviation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body; `92002` invoice email could not be delivered */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_invoices_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** @description unpaid, partially_paid, paid or deleted. */
                        status: string;
                        customer_id: string | null;
                        customer_first_name: string | null;
                        customer_last_name: string | null;
                        customer_email: string | null;
                        customer_address_1: string | null;
                        customer_address_2: string | null;
                        customer_city: string | null;
                        customer_state: string | null;
                        customer_zip: string | null;
                        customer_company: string | null;
                        customer_phone: string | null;
                        customer_fax: string | null;
                        items: {
                            description: string;
                            quantity: number;
                            unit_amount: number;
                            amount: number;
                        }[];
                        amount: number;
                        amount_paid: number;
                        payments: {
                            id: string;
                            amount: number;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                        due_date: string | null;
                        memo: string | null;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** Format: date-time */
                        paid_at: string | null;
                        /** Format: date-time */
                        deleted_at: string | null;
                        balance: number;
                        /** @description The email of the invoice, once queued. */
                        delivery: {
                            email_address: string;
                            status: string;
                            attempts: number;
                            /** Format: date-time */
                            queued_at: string;
                            /** Format: date-time */
                            sent_at: string | null;
                            last_error: string | null;
                        } | null;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `92000` invoice not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_invoices_id: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description The customer's first name, at most 100 characters (filled from customer_id when left out). */
                    customer_first_name?: string;
                    /** @description The customer's last name, at most 100 characters (filled from customer_id when left out). */
                    customer_last_name?: string;
                    /**
                     * Format: email
                     * @description The customer's email, at most 254 characters (filled from customer_id when left out).
                     */
                    customer_email?: string;
                    /** @description The customer's address 1, at most 255 characters (filled from customer_id when left out). */
                    customer_address_1?: string;
                    /** @description The customer's address 2, at most 255 characters (filled from customer_id when left out). */
                    customer_address_2?: string;
                    /** @description The customer's city, at most 100 characters (filled from customer_id when left out). */
                    customer_city?: string;
                    /** @description The customer's state, at most 2 characters (filled from customer_id when left out). */
                    customer_state?: string;
                    /** @description The customer's zip, at most 16 characters (filled from customer_id when left out). */
                    customer_zip?: string;
                    /** @description The customer's company, at most 255 characters (filled from customer_id when left out). */
                    customer_company?: string;
                    /** @description The customer's phone, at most 32 characters (filled from customer_id when left out). */
                    customer_phone?: string;
                    /** @description The customer's fax, at most 32 characters (filled from customer_id when left out). */
                    customer_fax?: string;
                    /** @description Line items (1 to 100), or the same JSON-encoded (a form sends items[0][description]=…). */
                    items?: {
                        description: string;
                        /** @default 1 */
                        quantity?: number;
                        /** @description Cents. */
                        unit_amount: number;
                    }[];
                    /** @description Cents, for an invoice of one line (or the items' total). */
                    amount?: number;
                    /** @description The one line of an invoice given by amount (default: "Amount due"). */
                    description?: string;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD.
                     */
                    due_date?: string;
                    /** @description At most 2000 characters. */
                    memo?: string;
                    /** @description Links a stored customer, filling the customer_* fields left out; blank unlinks (update). */
                    customer_id?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description The customer's first name, at most 100 characters (filled from customer_id when left out). */
                    customer_first_name?: string;
                    /** @description The customer's last name, at most 100 characters (filled from customer_id when left out). */
                    customer_last_name?: string;
                    /**
                     * Format: email
                     * @description The customer's email, at most 254 characters (filled from customer_id when left out).
                     */
                    customer_email?: string;
                    /** @description The customer's address 1, at most 255 characters (filled from customer_id when left out). */
                    customer_address_1?: string;
                    /** @description The customer's address 2, at most 255 characters (filled from customer_id when left out). */
                    customer_address_2?: string;
                    /** @description The customer's city, at most 100 characters (filled from customer_id when left out). */
                    customer_city?: string;
                    /** @description The customer's state, at most 2 characters (filled from customer_id when left out). */
                    customer_state?: string;
                    /** @description The customer's zip, at most 16 characters (filled from customer_id when left out). */
                    customer_zip?: string;
                    /** @description The customer's company, at most 255 characters (filled from customer_id when left out). */
                    customer_company?: string;
                    /** @description The customer's phone, at most 32 characters (filled from customer_id when left out). */
                    customer_phone?: string;
                    /** @description The customer's fax, at most 32 characters (filled from customer_id when left out). */
                    customer_fax?: string;
                    /** @description Line items (1 to 100), or the same JSON-encoded (a form sends items[0][description]=…). */
                    items?: {
                        description: string;
                        /** @default 1 */
                        quantity?: number;
                        /** @description Cents. */
                        unit_amount: number;
                    }[];
                    /** @description Cents, for an invoice of one line (or the items' total). */
                    amount?: number;
                    /** @description The one line of an invoice given by amount (default: "Amount due"). */
                    description?: string;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD.
                     */
                    due_date?: string;
                    /** @description At most 2000 characters. */
                    memo?: string;
                    /** @description Links a stored customer, filling the customer_* fields left out; blank unlinks (update). */
                    customer_id?: string;
                };
                "multipart/form-data": {
                    /** @description Up to 8 KiB of your own keys and values, as an object or a JSON-encoded string. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description The customer's first name, at most 100 characters (filled from customer_id when left out). */
                    customer_first_name?: string;
                    /** @description The customer's last name, at most 100 characters (filled from customer_id when left out). */
                    customer_last_name?: string;
                    /**
                     * Format: email
                     * @description The customer's email, at most 254 characters (filled from customer_id when left out).
                     */
                    customer_email?: string;
                    /** @description The customer's address 1, at most 255 characters (filled from customer_id when left out). */
                    customer_address_1?: string;
                    /** @description The customer's address 2, at most 255 characters (filled from customer_id when left out). */
                    customer_address_2?: string;
                    /** @description The customer's city, at most 100 characters (filled from customer_id when left out). */
                    customer_city?: string;
                    /** @description The customer's state, at most 2 characters (filled from customer_id when left out). */
                    customer_state?: string;
                    /** @description The customer's zip, at most 16 characters (filled from customer_id when left out). */
                    customer_zip?: string;
                    /** @description The customer's company, at most 255 characters (filled from customer_id when left out). */
                    customer_company?: string;
                    /** @description The customer's phone, at most 32 characters (filled from customer_id when left out). */
                    customer_phone?: string;
                    /** @description The customer's fax, at most 32 characters (filled from customer_id when left out). */
                    customer_fax?: string;
                    /** @description Line items (1 to 100), or the same JSON-encoded (a form sends items[0][description]=…). */
                    items?: {
                        description: string;
                        /** @default 1 */
                        quantity?: number;
                        /** @description Cents. */
                        unit_amount: number;
                    }[];
                    /** @description Cents, for an invoice of one line (or the items' total). */
                    amount?: number;
                    /** @description The one line of an invoice given by amount (default: "Amount due"). */
                    description?: string;
                    /**
                     * Format: date
                     * @description YYYY-MM-DD.
                     */
                    due_date?: string;
                    /** @description At most 2000 characters. */
                    memo?: string;
                    /** @description Links a stored customer, filling the customer_* fields left out; blank unlinks (update). */
                    customer_id?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** @description unpaid, partially_paid, paid or deleted. */
                        status: string;
                        customer_id: string | null;
                        customer_first_name: string | null;
                        customer_last_name: string | null;
                        customer_email: string | null;
                        customer_address_1: string | null;
                        customer_address_2: string | null;
                        customer_city: string | null;
                        customer_state: string | null;
                        customer_zip: string | null;
                        customer_company: string | null;
                        customer_phone: string | null;
                        customer_fax: string | null;
                        items: {
                            description: string;
                            quantity: number;
                            unit_amount: number;
                            amount: number;
                        }[];
                        amount: number;
                        amount_paid: number;
                        payments: {
                            id: string;
                            amount: number;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                        due_date: string | null;
                        memo: string | null;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** Format: date-time */
                        paid_at: string | null;
                        /** Format: date-time */
                        deleted_at: string | null;
                        balance: number;
                        /** @description The email of the invoice, once queued. */
                        delivery: {
                            email_address: string;
                            status: string;
                            attempts: number;
                            /** Format: date-time */
                            queued_at: string;
                            /** Format: date-time */
                            sent_at: string | null;
                            last_error: string | null;
                        } | null;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `59112` amount must be a number of cents above zero; `34798` valid customer_id required; `81609` customer email invalid or state not a two-character abbreviation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `92000` invoice not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `INV01` only an unpaid invoice can be updated */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    delete_invoices_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        success: boolean;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `92000` invoice not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `92007` a paid invoice cannot be deleted; `92008` invoice cannot be deleted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_invoices_id_deliver: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** @description unpaid, partially_paid, paid or deleted. */
                        status: string;
                        customer_id: string | null;
                        customer_first_name: string | null;
                        customer_last_name: string | null;
                        customer_email: string | null;
                        customer_address_1: string | null;
                        customer_address_2: string | null;
                        customer_city: string | null;
                        customer_state: string | null;
                        customer_zip: string | null;
                        customer_company: string | null;
                        customer_phone: string | null;
                        customer_fax: string | null;
                        items: {
                            description: string;
                            quantity: number;
                            unit_amount: number;
                            amount: number;
                        }[];
                        amount: number;
                        amount_paid: number;
                        payments: {
                            id: string;
                            amount: number;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                        due_date: string | null;
                        memo: string | null;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** Format: date-time */
                        paid_at: string | null;
                        /** Format: date-time */
                        deleted_at: string | null;
                        balance: number;
                        /** @description The email of the invoice, once queued. */
                        delivery: {
                            email_address: string;
                            status: string;
                            attempts: number;
                            /** Format: date-time */
                            queued_at: string;
                            /** Format: date-time */
                            sent_at: string | null;
                            last_error: string | null;
                        } | null;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `69005` email_address needed to send a receipt */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `92000` invoice not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body; `92002` invoice email could not be delivered */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_invoices_id_mark_as_paid: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Cents paid (default: the balance). */
                    amount?: number;
                };
                "application/x-www-form-urlencoded": {
                    /** @description Cents paid (default: the balance). */
                    amount?: number;
                };
                "multipart/form-data": {
                    /** @description Cents paid (default: the balance). */
                    amount?: number;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** @description unpaid, partially_paid, paid or deleted. */
                        status: string;
                        customer_id: string | null;
                        customer_first_name: string | null;
                        customer_last_name: string | null;
                        customer_email: string | null;
                        customer_address_1: string | null;
                        customer_address_2: string | null;
                        customer_city: string | null;
                        customer_state: string | null;
                        customer_zip: string | null;
                        customer_company: string | null;
                        customer_phone: string | null;
                        customer_fax: string | null;
                        items: {
                            description: string;
                            quantity: number;
                            unit_amount: number;
                            amount: number;
                        }[];
                        amount: number;
                        amount_paid: number;
                        payments: {
                            id: string;
                            amount: number;
                            /** Format: date-time */
                            created_at: string;
                        }[];
                        due_date: string | null;
                        memo: string | null;
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        /** Format: date-time */
                        paid_at: string | null;
                        /** Format: date-time */
                        deleted_at: string | null;
                        balance: number;
                        /** @description The email of the invoice, once queued. */
                        delivery: {
                            email_address: string;
                            status: string;
                            attempts: number;
                            /** Format: date-time */
                            queued_at: string;
                            /** Format: date-time */
                            sent_at: string | null;
                            last_error: string | null;
                        } | null;
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `INV03` amount exceeds the balance of the invoice; `59112` amount must be a number of cents above zero */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `92000` invoice not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later; `INV02` only an unpaid or partially paid invoice can be marked as paid */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_tokens_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Sent again with the same body, answers what the first request answered, without doing it twice. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Numerically keyed: `{ "0": {...}, "1": {...} }` (or form keys payment_methods[0][payment_id], or a JSON list); at most 10,000. */
                    payment_methods: {
                        [key: string]: {
                            /** @description A stored card method id. */
                            payment_id: string;
                            /** @description 1 to 12. */
                            card_exp_month: number | string;
                            /** @description Four digits. */
                            card_exp_year: number | string;
                        };
                    };
                };
                "application/x-www-form-urlencoded": {
                    /** @description Numerically keyed: `{ "0": {...}, "1": {...} }` (or form keys payment_methods[0][payment_id], or a JSON list); at most 10,000. */
                    payment_methods: {
                        [key: string]: {
                            /** @description A stored card method id. */
                            payment_id: string;
                            /** @description 1 to 12. */
                            card_exp_month: number | string;
                            /** @description Four digits. */
                            card_exp_year: number | string;
                        };
                    };
                };
                "multipart/form-data": {
                    /** @description Numerically keyed: `{ "0": {...}, "1": {...} }` (or form keys payment_methods[0][payment_id], or a JSON list); at most 10,000. */
                    payment_methods: {
                        [key: string]: {
                            /** @description A stored card method id. */
                            payment_id: string;
                            /** @description 1 to 12. */
                            card_exp_month: number | string;
                            /** @description Four digits. */
                            card_exp_year: number | string;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** @enum {string} */
                        status: "received" | "completed";
                        accepted_count: number;
                        rejected_count: number;
                        applied_count: number | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        review_at: string;
                        /** Format: date-time */
                        completed_at: string | null;
                        payment_methods: {
                            accepted: {
                                [key: string]: {
                                    payment_id?: string | null;
                                    card_exp_month?: number | string | null;
                                    card_exp_year?: number | string | null;
                                    result?: {
                                        /** @enum {string} */
                                        status: "Received" | "Fail";
                                        errors?: {
                                            code: string;
                                            message: string;
                                        }[];
                                    };
                                    /** @description Once the review has completed. */
                                    applied?: boolean | null;
                                };
                            };
                            rejected: {
                                [key: string]: {
                                    payment_id?: string | null;
                                    card_exp_month?: number | string | null;
                                    card_exp_year?: number | string | null;
                                    result?: {
                                        /** @enum {string} */
                                        status: "Received" | "Fail";
                                        errors?: {
                                            code: string;
                                            message: string;
                                        }[];
                                    };
                                    /** @description Once the review has completed. */
                                    applied?: boolean | null;
                                };
                            };
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `IDEM01` Idempotency-Key must be 1 to 255 printable characters; `122004` body needs a numerically keyed payment_methods object; `UPD01` an account updater batch holds at most 10,000 payment methods; split larger batches */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM03` a request with this Idempotency-Key is still in progress; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `IDEM02` Idempotency-Key was already used with a different request body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `122000` batch update failed, retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_tokens_update_id: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        id: string;
                        /** @enum {string} */
                        status: "received" | "completed";
                        accepted_count: number;
                        rejected_count: number;
                        applied_count: number | null;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        review_at: string;
                        /** Format: date-time */
                        completed_at: string | null;
                        payment_methods: {
                            accepted: {
                                [key: string]: {
                                    payment_id?: string | null;
                                    card_exp_month?: number | string | null;
                                    card_exp_year?: number | string | null;
                                    result?: {
                                        /** @enum {string} */
                                        status: "Received" | "Fail";
                                        errors?: {
                                            code: string;
                                            message: string;
                                        }[];
                                    };
                                    /** @description Once the review has completed. */
                                    applied?: boolean | null;
                                };
                            };
                            rejected: {
                                [key: string]: {
                                    payment_id?: string | null;
                                    card_exp_month?: number | string | null;
                                    card_exp_year?: number | string | null;
                                    result?: {
                                        /** @enum {string} */
                                        status: "Received" | "Fail";
                                        errors?: {
                                            code: string;
                                            message: string;
                                        }[];
                                    };
                                    /** @description Once the review has completed. */
                                    applied?: boolean | null;
                                };
                            };
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `NOTFOUND` no such endpoint; `UPD02` account updater record not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_dashboard_overview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        merchant_id: string;
                        name: string;
                        env: string;
                        live_enabled: boolean;
                        test_public_key: string | null;
                        /** Format: date-time */
                        now: string;
                        clock_offset_ms: number;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_dashboard_keys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        live_enabled: boolean;
                        test: {
                            key_set_id: string;
                            env: string;
                            public_key: string | null;
                            private_key: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            expires_at: string | null;
                            /** @enum {string} */
                            status: "active" | "expiring" | "expired";
                            /** Format: date-time */
                            private_key_exposed_at: string | null;
                        }[];
                        live: {
                            key_set_id: string;
                            env: string;
                            public_key: string | null;
                            private_key: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            expires_at: string | null;
                            /** @enum {string} */
                            status: "active" | "expiring" | "expired";
                            /** Format: date-time */
                            private_key_exposed_at: string | null;
                        }[];
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    post_dashboard_keys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description Default: the key's environment.
                     * @enum {string}
                     */
                    env?: "test" | "live";
                    /**
                     * @description When the set being replaced stops working (default now).
                     * @enum {string}
                     */
                    expire_old?: "now" | "1h";
                };
                "application/x-www-form-urlencoded": {
                    /**
                     * @description Default: the key's environment.
                     * @enum {string}
                     */
                    env?: "test" | "live";
                    /**
                     * @description When the set being replaced stops working (default now).
                     * @enum {string}
                     */
                    expire_old?: "now" | "1h";
                };
                "multipart/form-data": {
                    /**
                     * @description Default: the key's environment.
                     * @enum {string}
                     */
                    env?: "test" | "live";
                    /**
                     * @description When the set being replaced stops working (default now).
                     * @enum {string}
                     */
                    expire_old?: "now" | "1h";
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        key_set_id: string;
                        env: string;
                        public_key: string;
                        private_key: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        old_keys_expire_at: string;
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server; `AUTH04` a test key cannot create live keys; sign in with a live private key */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ02` request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `REQ03` unsupported content type or encoding; send JSON, form-encoded or multipart/form-data, as is or with gzip, deflate or br */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_dashboard_processor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        test: {
                            /** @enum {string} */
                            env: "test" | "live";
                            /** @description 'simulator' in test mode (always); null when live has none. */
                            connector: string | null;
                            configured: boolean;
                            /** @description The connector's plain settings, with sandbox and endpoint. */
                            settings: {
                                [key: string]: unknown;
                            };
                            /** @description Each secret it holds, as "set". */
                            secrets: {
                                [key: string]: "set";
                            };
                            /** Format: date-time */
                            created_at: string | null;
                            /** Format: date-time */
                            updated_at: string | null;
                        };
                        live: {
                            /** @enum {string} */
                            env: "test" | "live";
                            /** @description 'simulator' in test mode (always); null when live has none. */
                            connector: string | null;
                            configured: boolean;
                            /** @description The connector's plain settings, with sandbox and endpoint. */
                            settings: {
                                [key: string]: unknown;
                            };
                            /** @description Each secret it holds, as "set". */
                            secrets: {
                                [key: string]: "set";
                            };
                            /** Format: date-time */
                            created_at: string | null;
                            /** Format: date-time */
                            updated_at: string | null;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    "get_dashboard_test-cards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            number: string;
                            brand: string;
                            bin_type: string;
                            bin_level: string;
                            outcome: string;
                            note: string;
                        }[];
                        bank_account: {
                            routing_number: string;
                            account_number: string;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_dashboard_transactions: {
        parameters: {
            query?: {
                /** @description Rows per page, 1 to 100. */
                limit?: number;
                /** @description Rows to skip. */
                offset?: number;
                /** @description SETTLED, DECLINED or RETURNED, any case. */
                status?: string;
                /** @description Cents, inclusive, on the amount asked for. */
                amount_min?: number;
                /** @description Cents, inclusive. */
                amount_max?: number;
                /** @description A date (2026-01-15, a whole UTC day) or an ISO 8601 timestamp (to the millisecond, UTC without a zone; years 0001 to 9999); inclusive. */
                created_from?: string;
                /** @description A date (2026-01-15, a whole UTC day) or an ISO 8601 timestamp (to the millisecond, UTC without a zone; years 0001 to 9999); inclusive. */
                created_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        list: {
                            class: string;
                            id: string;
                            merchant_id: string;
                            /** @enum {string} */
                            payment_method: "credit_card" | "bank_account";
                            transaction_type: string;
                            /** @description SETTLED, AUTHORIZED, FAILED, VOIDED… */
                            status: string;
                            successful: boolean;
                            reference_number: string;
                            system_trace: string | null;
                            /** @description Cents. */
                            amount_authorized: number;
                            /** @description Cents. */
                            amount_settled: number;
                            /** @description Cents. */
                            amount_failed: number;
                            /** @description Cents. */
                            amount_refunded: number;
                            authorized: boolean;
                            settled: boolean;
                            refunded: boolean;
                            voided: boolean;
                            description: string | null;
                            card_owner_name: string | null;
                            customer_id: string | null;
                            csc_check: string;
                            avs_address_check: string | null;
                            source: string;
                            metadata: {
                                [key: string]: unknown;
                            };
                            /** @description The decline code of a failed charge. */
                            error_code: string | null;
                            error_message: string | null;
                            recurring: boolean;
                            company: string | null;
                            website: string | null;
                            email: string | null;
                            first_name: string | null;
                            last_name: string | null;
                            address_1: string | null;
                            address_2: string | null;
                            city: string | null;
                            state: string | null;
                            zip: string | null;
                            country: string | null;
                            phone: string | null;
                            fax: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            processed_at: string | null;
                            /** @description Empty for a bank-account charge. */
                            card_type: string;
                            /** @description Masked: the last four digits only (of the account number for a bank-account charge). */
                            card_number: string;
                            /** @description Empty for a bank-account charge. */
                            card_exp_month: string;
                            /** @description Empty for a bank-account charge. */
                            card_exp_year: string;
                            account_holder_name: string;
                            receipt: {
                                due: boolean;
                                email_address: string | null;
                                receipt_template_id: string | null;
                                receipt_id: number | null;
                            };
                            email_address: string | null;
                            refunds: {
                                id: string;
                                amount: number;
                                /**
                                 * @description A live refund is pending until its processor answers.
                                 * @enum {string}
                                 */
                                status: "pending" | "succeeded" | "failed";
                                /**
                                 * @description void: a live charge refunded whole before its processor settled it.
                                 * @enum {string}
                                 */
                                kind: "refund" | "void";
                                /** Format: date-time */
                                created_at: string;
                            }[];
                            /** @description Live charges: what the processor said (null in test mode). */
                            processor: null | {
                                connector: string;
                                /** @description The processor's own transaction id. */
                                transaction_id: string | null;
                                auth_code: string | null;
                                avs_result: string | null;
                                cvv_result: string | null;
                                response_code: string | null;
                                /** @description The processor's own text. */
                                message: string | null;
                            };
                            /** @description The customer record's name, else the name on the charge. */
                            customer_name: string | null;
                            /** @description The customer record's email, else the email the charge was sent with or its receipt went to. */
                            customer_email: string | null;
                        }[];
                        meta: {
                            limit: number;
                            offset: number;
                            total_results: number;
                        };
                    };
                };
            };
            /** @description `REQ01` invalid request; `PAGE01` limit must be an integer from 1 to 100 and offset an integer of 0 or more */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_dashboard_summary: {
        parameters: {
            query?: {
                /** @description UTC days in `series`, today the last (1 to 90, default 30; else DASH01). */
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        days: number;
                        /** Format: date-time */
                        now: string;
                        totals: {
                            today: {
                                gross_volume: number;
                                successful: number;
                                declined: number;
                                refunded: number;
                                refunds: number;
                                new_customers: number;
                            };
                            last_7_days: {
                                gross_volume: number;
                                successful: number;
                                declined: number;
                                refunded: number;
                                refunds: number;
                                new_customers: number;
                            };
                            last_30_days: {
                                gross_volume: number;
                                successful: number;
                                declined: number;
                                refunded: number;
                                refunds: number;
                                new_customers: number;
                            };
                            period: {
                                gross_volume: number;
                                successful: number;
                                declined: number;
                                refunded: number;
                                refunds: number;
                                new_customers: number;
                            };
                        };
                        series: {
                            day: string;
                            gross_volume: number;
                            successful: number;
                            declined: number;
                            refunded: number;
                            refunds: number;
                            new_customers: number;
                        }[];
                        recent_events: {
                            class: string;
                            id: string;
                            resource: string;
                            type: string;
                            /** @description The resource as the API shows it. */
                            data: {
                                [key: string]: unknown;
                            };
                            /** Format: date-time */
                            created_at: string;
                            /** Format: date-time */
                            dispatched_at: string | null;
                        }[];
                    };
                };
            };
            /** @description `REQ01` invalid request; `DASH01` days must be an integer from 1 to 90 */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    get_dashboard_search: {
        parameters: {
            query: {
                /** @description An id or its start, an email, a name, the last 4 digits of a card or account, or an amount (12.50 or 1250). */
                q: string;
                /** @description Results in all (1 to 20, default 10). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        class: string;
                        q: string;
                        results: {
                            /** @enum {string} */
                            type: "transaction" | "customer" | "invoice" | "subscription";
                            id: string;
                            title: string;
                            subtitle: string;
                            amount: number | null;
                        }[];
                    };
                };
            };
            /** @description `REQ01` invalid request; `DASH02` q must be 1 to 100 characters and limit an integer from 1 to 20 */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    "get_dashboard_export_transactions.csv": {
        parameters: {
            query?: {
                /** @description SETTLED, DECLINED or RETURNED, any case. */
                status?: string;
                /** @description Cents, inclusive, on the amount asked for. */
                amount_min?: number;
                /** @description Cents, inclusive. */
                amount_max?: number;
                /** @description A date (2026-01-15, a whole UTC day) or an ISO 8601 timestamp (to the millisecond, UTC without a zone; years 0001 to 9999); inclusive. */
                created_from?: string;
                /** @description A date (2026-01-15, a whole UTC day) or an ISO 8601 timestamp (to the millisecond, UTC without a zone; years 0001 to 9999); inclusive. */
                created_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    "get_dashboard_export_customers.csv": {
        parameters: {
            query?: {
                /** @description Name, company or id contains it (up to 100 characters; blank is none). */
                search_term?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    "get_dashboard_export_invoices.csv": {
        parameters: {
            query?: {
                /** @description unpaid, partially_paid, paid or deleted; without it, all but deleted. */
                status?: "unpaid" | "partially_paid" | "paid" | "deleted";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH01` missing, unknown or expired API key (HTTP Basic: key as username, empty password) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `AUTH02` a public key cannot be used here; use the private key from your server */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
            /** @description `RATE01` too many requests; retry later */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
    "get_openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description `REQ01` invalid request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Errors"];
                };
            };
        };
    };
}
